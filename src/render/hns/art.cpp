#include "render/hns/art.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <numbers>

#include "render/hns/ids.hpp"

namespace hschool::render::hns {
namespace {

using sim::hns::LockOwner;
using sim::hns::ObjectKind;
using sim::hns::Team;

constexpr Rgba kEdge{24, 26, 34, 255};
constexpr Rgba kPaper{244, 244, 236, 235};
constexpr int kGlyphW = 5, kGlyphH = 7, kGlyphGap = 1;

Rgba shade(Rgba c, int percent) {
    auto f = [&](std::uint8_t v) { return static_cast<std::uint8_t>(std::clamp(v * percent / 100, 0, 255)); };
    return {f(c.r), f(c.g), f(c.b), c.a};
}

}  // namespace

Rgba team_colour(Team team) { return team == Team::Red ? kHiderBlue : kSeekerRed; }

Canvas draw_cog(Team team, int rot, int scale) {
    Canvas c(kCogCanvas, kCogCanvas);
    const int mid = kCogCanvas / 2, body = kCogBodyPx / 2;
    const Rgba colour = team_colour(team);
    // Teeth around the body make it a cog; the nose points along the aim.
    for (int t = 0; t < 8; ++t) {
        const double a = t * std::numbers::pi / 4;
        c.fill_circle(mid + static_cast<int>(std::lround(std::cos(a) * body)),
                      mid + static_cast<int>(std::lround(std::sin(a) * body)), 4, shade(colour, 70));
    }
    c.fill_circle(mid, mid, body - 2, colour);
    c.fill_circle(mid, mid, 5, shade(colour, 50));
    const double aim = rot * 2 * std::numbers::pi / kCogRotations;  // counter-clockwise, y down
    const int nx = mid + static_cast<int>(std::lround(std::cos(aim) * (body + 6)));
    const int ny = mid - static_cast<int>(std::lround(std::sin(aim) * (body + 6)));
    for (int w = -1; w <= 1; ++w) c.line(mid + w, mid, nx + w, ny, Rgba{250, 250, 240, 255});
    return c.scaled(scale);
}

Canvas draw_cone(int aim_brads, bool seeker, int range, int cone_deg, int scale) {
    const int n = range * 2 + 2, c = n / 2;
    Canvas out(n, n);
    const Rgba tint = seeker ? Rgba{250, 196, 84, 54} : Rgba{120, 168, 236, 34};
    const double aim = aim_brads * 2 * std::numbers::pi / 256;
    const double ax = std::cos(aim), ay = -std::sin(aim);
    const double cos_half = std::cos(cone_deg * std::numbers::pi / 180.0);
    for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x) {
            const double vx = x - c, vy = y - c;
            const double d2 = vx * vx + vy * vy;
            if (d2 > static_cast<double>(range) * range || d2 < 1.0) continue;
            const double d = std::sqrt(d2);
            if (vx * ax + vy * ay < cos_half * d) continue;
            Rgba px = tint;
            px.a = static_cast<std::uint8_t>(tint.a * (0.35 + 0.65 * (1.0 - d / range)));
            out.put(x, y, px);
        }
    return out.scaled(scale);
}

Canvas draw_object(ObjectKind kind, int w, int h, LockOwner locked_by) {
    Canvas c(w, h);
    const Rgba fill = kind == ObjectKind::Crate   ? Rgba{150, 104, 60, 255}
                      : kind == ObjectKind::Panel ? Rgba{128, 136, 148, 255}
                                                  : Rgba{184, 160, 96, 255};
    c.fill_rect(0, 0, w, h, fill);
    c.outline_rect(0, 0, w, h, 1, shade(fill, 55));
    if (kind == ObjectKind::Crate) {  // planks
        for (int y = 8; y < h - 1; y += 8) c.fill_rect(1, y, w - 2, 1, shade(fill, 75));
    } else if (kind == ObjectKind::Ramp) {  // rungs across the long side
        for (int i = 6; i < std::max(w, h) - 1; i += 6) {
            if (w >= h) c.fill_rect(i, 1, 1, h - 2, shade(fill, 75));
            else c.fill_rect(1, i, w - 2, 1, shade(fill, 75));
        }
    }
    if (locked_by != LockOwner::None)
        c.outline_rect(0, 0, w, h, 2, locked_by == LockOwner::Hiders ? kHiderBlue : kSeekerRed);
    return c;
}

Canvas draw_padlock() {
    const int n = kPadlockPx;
    Canvas c(n, n);
    const Rgba body{250, 226, 120, 255}, edge{40, 32, 12, 255};
    c.fill_rect(2, n / 2 - 1, n - 4, n / 2, body);
    c.outline_rect(2, n / 2 - 1, n - 4, n / 2, 1, edge);
    c.fill_rect(4, 2, n - 8, 1, edge);
    c.fill_rect(4, 2, 1, n / 2 - 3, edge);
    c.fill_rect(n - 5, 2, 1, n / 2 - 3, edge);
    c.fill_rect(n / 2, n / 2 + 2, 1, 2, edge);
    return c;
}

Canvas draw_spotted_ring() {
    const int n = kSpottedRingPx, mid = n / 2, outer = mid - 1, inner = mid - 4;
    Canvas c(n, n);
    for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x) {
            const int d2 = (x - mid) * (x - mid) + (y - mid) * (y - mid);
            if (d2 <= outer * outer && d2 >= inner * inner) c.put(x, y, Rgba{236, 72, 60, 220});
        }
    return c;
}

Canvas draw_tether(int dx, int dy) {
    const int w = std::max(2, std::abs(dx) + 2), h = std::max(2, std::abs(dy) + 2);
    Canvas c(w, h);
    const int x0 = dx >= 0 ? 1 : w - 2, y0 = dy >= 0 ? 1 : h - 2;
    const int steps = std::max(std::abs(dx), std::abs(dy));
    for (int s = 0; s <= steps; ++s) {
        if ((s / 3) % 2 == 1) continue;  // dashed
        c.put(x0 + (steps == 0 ? 0 : dx * s / steps), y0 + (steps == 0 ? 0 : dy * s / steps), Rgba{236, 232, 210, 190});
    }
    return c;
}

Canvas draw_shout_bubble(const std::string& text) {
    const int chars = std::max<int>(1, static_cast<int>(text.size()));
    const int w = chars * (kGlyphW + kGlyphGap) - kGlyphGap + 8, h = kGlyphH + 10;
    Canvas c(w, h);
    c.fill_rect(0, 0, w, h - 4, kPaper);
    c.outline_rect(0, 0, w, h - 4, 1, kEdge);
    for (int i = 0; i < 4; ++i) c.fill_rect(w / 2 - 3 + i, h - 5 + i, 6 - 2 * i, 1, kPaper);
    // Not a font: each character gets a blocky mark derived from its code, enough to see speech.
    for (int i = 0; i < static_cast<int>(text.size()); ++i) {
        const auto code = static_cast<unsigned char>(text[static_cast<std::size_t>(i)]);
        if (code == ' ') continue;
        const int x = 4 + i * (kGlyphW + kGlyphGap);
        for (int gy = 0; gy < kGlyphH; ++gy)
            for (int gx = 0; gx < kGlyphW; ++gx)
                if (((code * 31 + gy * 7 + gx * 3) % 5) < 3) c.put(x + gx, 4 + gy, kEdge);
    }
    return c;
}

Canvas draw_room(const sim::hns::Room& room) {
    Canvas c(room.width, room.height);
    for (int y = 0; y < room.height; ++y)
        for (int x = 0; x < room.width; ++x) {
            const bool tile_edge = x % 16 == 0 || y % 16 == 0;
            if (room.wall_at(x, y)) {
                const bool brick = (y % 8 == 0) || ((x + (y / 8) * 4) % 16 == 0);
                c.put(x, y, brick ? Rgba{70, 74, 86, 255} : Rgba{104, 110, 126, 255});
            } else {
                c.put(x, y, tile_edge ? Rgba{30, 33, 40, 255} : Rgba{40, 44, 52, 255});
            }
        }
    return c;
}

}  // namespace hschool::render::hns
