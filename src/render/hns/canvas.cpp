#include "render/hns/canvas.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace hschool::render::hns {

void Canvas::put(int x, int y, Rgba c) {
    if (x < 0 || y < 0 || x >= width_ || y >= height_) return;
    const std::size_t i = (static_cast<std::size_t>(y) * width_ + x) * 4;
    pixels_[i] = c.r;
    pixels_[i + 1] = c.g;
    pixels_[i + 2] = c.b;
    pixels_[i + 3] = c.a;
}

Rgba Canvas::at(int x, int y) const {
    if (x < 0 || y < 0 || x >= width_ || y >= height_) return {};
    const std::size_t i = (static_cast<std::size_t>(y) * width_ + x) * 4;
    return {pixels_[i], pixels_[i + 1], pixels_[i + 2], pixels_[i + 3]};
}

void Canvas::fill_rect(int x, int y, int w, int h, Rgba c) {
    for (int yy = y; yy < y + h; ++yy)
        for (int xx = x; xx < x + w; ++xx) put(xx, yy, c);
}

void Canvas::outline_rect(int x, int y, int w, int h, int thickness, Rgba c) {
    fill_rect(x, y, w, thickness, c);
    fill_rect(x, y + h - thickness, w, thickness, c);
    fill_rect(x, y, thickness, h, c);
    fill_rect(x + w - thickness, y, thickness, h, c);
}

void Canvas::fill_circle(int cx, int cy, int radius, Rgba c) {
    for (int y = -radius; y <= radius; ++y)
        for (int x = -radius; x <= radius; ++x)
            if (x * x + y * y <= radius * radius) put(cx + x, cy + y, c);
}

void Canvas::line(int x0, int y0, int x1, int y1, Rgba c) {
    const int steps = std::max(std::abs(x1 - x0), std::abs(y1 - y0));
    for (int s = 0; s <= steps; ++s) {
        const int x = steps == 0 ? x0 : x0 + (x1 - x0) * s / steps;
        const int y = steps == 0 ? y0 : y0 + (y1 - y0) * s / steps;
        put(x, y, c);
    }
}

Canvas Canvas::scaled(int k) const {
    if (k <= 1) return *this;
    Canvas out(width_ * k, height_ * k);
    // Row by row: widen one source row once, then copy it k times (a 2x cone is 1.9 M pixels).
    const std::size_t out_row = static_cast<std::size_t>(out.width_) * 4;
    for (int y = 0; y < height_; ++y) {
        std::uint8_t* row = out.pixels_.data() + static_cast<std::size_t>(y) * k * out_row;
        const std::uint8_t* src = pixels_.data() + static_cast<std::size_t>(y) * width_ * 4;
        for (int x = 0; x < width_; ++x)
            for (int i = 0; i < k; ++i) std::memcpy(row + (static_cast<std::size_t>(x) * k + i) * 4, src + static_cast<std::size_t>(x) * 4, 4);
        for (int i = 1; i < k; ++i) std::memcpy(row + i * out_row, row, out_row);
    }
    return out;
}

}  // namespace hschool::render::hns
