// PNG and GIF files read back by the libraries that read them everywhere
// (cairo's PNG reader, giflib's decoder), so a test checks what a viewer
// would see, not what the writer meant.
#pragma once

#include <cairo.h>
#include <gif_lib.h>

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace foxgeese::test {

struct DecodedPng {
    int width = 0;
    int height = 0;
    std::vector<std::uint32_t> pixels;  // 0x00RRGGBB, row by row

    std::uint32_t at(int x, int y) const { return pixels[static_cast<std::size_t>(y) * width + x]; }
};

// Nothing when `bytes` is not a PNG cairo can read.
inline std::optional<DecodedPng> decode_png(const std::string& bytes) {
    struct Reader {
        const std::string& bytes;
        std::size_t at = 0;
    } reader{bytes};
    cairo_surface_t* surface = cairo_image_surface_create_from_png_stream(
        [](void* closure, unsigned char* data, unsigned int length) {
            auto* r = static_cast<Reader*>(closure);
            if (r->bytes.size() - r->at < length) return CAIRO_STATUS_READ_ERROR;
            std::memcpy(data, r->bytes.data() + r->at, length);
            r->at += length;
            return CAIRO_STATUS_SUCCESS;
        },
        &reader);
    if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(surface);
        return std::nullopt;
    }
    DecodedPng png;
    png.width = cairo_image_surface_get_width(surface);
    png.height = cairo_image_surface_get_height(surface);
    const int stride = cairo_image_surface_get_stride(surface);
    const unsigned char* data = cairo_image_surface_get_data(surface);
    for (int y = 0; y < png.height; ++y) {
        const auto* row = reinterpret_cast<const std::uint32_t*>(data + y * stride);
        for (int x = 0; x < png.width; ++x)
            png.pixels.push_back(row[x] & 0xffffff);
    }
    cairo_surface_destroy(surface);
    return png;
}

struct DecodedGif {
    int width = 0;
    int height = 0;
    int frames = 0;
    std::vector<int> delays_cs;  // per frame, from its graphics control block
    bool loops = false;          // a NETSCAPE2.0 application extension
    // Every frame painted in turn over the one before (no disposal): what
    // a viewer shows last, as colour-map indices.
    std::vector<std::uint8_t> last_canvas;
    std::vector<std::uint32_t> colors;  // the global colour map, 0x00RRGGBB
    std::vector<int> frame_areas;       // pixels each frame stores
};

// Nothing when `bytes` is not a GIF giflib can read whole.
inline std::optional<DecodedGif> decode_gif(const std::string& bytes) {
    struct Reader {
        const std::string& bytes;
        std::size_t at = 0;
    } reader{bytes};
    int error = 0;
    GifFileType* gif = DGifOpen(
        &reader,
        [](GifFileType* file, GifByteType* out, int length) {
            auto* r = static_cast<Reader*>(file->UserData);
            const std::size_t n =
                std::min<std::size_t>(static_cast<std::size_t>(length), r->bytes.size() - r->at);
            std::memcpy(out, r->bytes.data() + r->at, n);
            r->at += n;
            return static_cast<int>(n);
        },
        &error);
    if (!gif) return std::nullopt;
    if (DGifSlurp(gif) != GIF_OK) {
        DGifCloseFile(gif, &error);
        return std::nullopt;
    }
    DecodedGif out;
    out.width = gif->SWidth;
    out.height = gif->SHeight;
    out.frames = gif->ImageCount;
    if (gif->SColorMap) {
        for (int i = 0; i < gif->SColorMap->ColorCount; ++i) {
            const GifColorType c = gif->SColorMap->Colors[i];
            out.colors.push_back((std::uint32_t{c.Red} << 16) | (std::uint32_t{c.Green} << 8) |
                                 c.Blue);
        }
    }
    // giflib keeps the extensions before an image with that image.
    if (gif->ImageCount > 0) {
        const SavedImage& first = gif->SavedImages[0];
        for (int i = 0; i < first.ExtensionBlockCount; ++i) {
            const ExtensionBlock& block = first.ExtensionBlocks[i];
            if (block.Function == APPLICATION_EXT_FUNC_CODE && block.ByteCount == 11 &&
                std::memcmp(block.Bytes, "NETSCAPE2.0", 11) == 0)
                out.loops = true;
        }
    }
    out.last_canvas.assign(static_cast<std::size_t>(out.width) * out.height, 0);
    for (int i = 0; i < gif->ImageCount; ++i) {
        const SavedImage& image = gif->SavedImages[i];
        GraphicsControlBlock control{};
        DGifSavedExtensionToGCB(gif, i, &control);
        out.delays_cs.push_back(control.DelayTime);
        const GifImageDesc& d = image.ImageDesc;
        out.frame_areas.push_back(d.Width * d.Height);
        for (int y = 0; y < d.Height; ++y) {
            for (int x = 0; x < d.Width; ++x) {
                out.last_canvas[static_cast<std::size_t>(d.Top + y) * out.width + d.Left + x] =
                    image.RasterBits[y * d.Width + x];
            }
        }
    }
    DGifCloseFile(gif, &error);
    return out;
}

}  // namespace foxgeese::test
