#pragma once
// A straight-RGBA pixel buffer and the few primitives the procedural art needs.
#include <cstdint>
#include <vector>

namespace hschool::render::hns {

struct Rgba {
    std::uint8_t r = 0, g = 0, b = 0, a = 0;
};

class Canvas {
public:
    Canvas(int width, int height) : width_(width), height_(height), pixels_(static_cast<std::size_t>(width) * height * 4) {}
    int width() const { return width_; }
    int height() const { return height_; }
    // Out-of-bounds writes are dropped: shapes may overhang the canvas edge.
    void put(int x, int y, Rgba c);
    Rgba at(int x, int y) const;
    void fill_rect(int x, int y, int w, int h, Rgba c);
    void outline_rect(int x, int y, int w, int h, int thickness, Rgba c);
    void fill_circle(int cx, int cy, int radius, Rgba c);
    void line(int x0, int y0, int x1, int y1, Rgba c);
    // Nearest-neighbour integer upscale, as the reference supersamples board sprites.
    Canvas scaled(int k) const;
    const std::vector<std::uint8_t>& pixels() const { return pixels_; }

private:
    int width_, height_;
    std::vector<std::uint8_t> pixels_;
};

}  // namespace hschool::render::hns
