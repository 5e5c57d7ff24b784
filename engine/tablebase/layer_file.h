// A layer on disk: one file per goose count, written whole under a temporary
// name and then renamed, so that a file that exists is complete and a build
// resumes by layer. The format (docs/tablebase.md) is little-endian:
//
//   header        104 bytes: the magic "FGTBFWD1", the format version, the
//                 goose count, the board's points, the number of goose sets
//                 and of canonical ones, the row width, and the offsets and
//                 lengths of the three parts below
//   bitmap        the mirror index's words (u64 each): which sets are kept
//   fox to move   one byte per position, canonical set then fox slot
//   geese to move the same for the geese to move
//   checksum      u64: FNV-1a over the file's 64-bit words before it (the last
//                 one padded with zero bytes)
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "engine/tablebase/mirror_index.h"
#include "engine/tablebase/table_layer.h"

namespace foxgeese::tablebase {

// "standard-forward-13.fgtb" in `dir`.
std::filesystem::path layer_file_path(const std::filesystem::path& dir, int geese);

// Writes a layer's file (through a temporary file renamed into place).
void write_layer_file(const std::filesystem::path& path, const MirrorIndex& index,
                      std::span<const std::uint8_t> fox_to_move,
                      std::span<const std::uint8_t> geese_to_move);

// Whether `path` holds an intact layer of `geese` geese: its header agrees
// with the goose count and its sizes, and its checksum holds; then
// `positions` is how many it stores (both sides to move). Otherwise returns
// false and says why in `problem`.
bool check_layer_file(const std::filesystem::path& path, int geese, std::string& problem,
                      std::uint64_t& positions);

// A layer read into memory.
struct LoadedLayer {
    std::unique_ptr<MirrorIndex> index;
    std::vector<std::uint8_t> fox_to_move;  // empty when not asked for
    std::vector<std::uint8_t> geese_to_move;
    LayerView view() const;
};

// Reads a layer file (checked with check_layer_file first); without
// `fox_to_move` only the mirror index and the geese-to-move values, which
// are what building a bigger layer needs. Throws std::runtime_error on a
// file that is not a layer of `geese` geese.
LoadedLayer read_layer_file(const std::filesystem::path& path, int geese, bool fox_to_move);

// A layer file read a position at a time: its mirror index in memory, one
// byte read per value (for a few probes, where loading the layer would read
// gigabytes).
class LayerFileReader {
  public:
    // Throws std::runtime_error as read_layer_file does.
    LayerFileReader(const std::filesystem::path& path, int geese);
    ~LayerFileReader();
    LayerFileReader(const LayerFileReader&) = delete;
    LayerFileReader& operator=(const LayerFileReader&) = delete;

    const MirrorIndex& index() const { return *index_; }
    std::uint8_t at(const GooseSetIndex& sets, Side side, Bitboard geese, int fox);
    // The values of one side in storage order, a piece at a time.
    void read_values(Side side, std::uint64_t first, std::span<std::uint8_t> out);

  private:
    struct Parts;
    std::unique_ptr<Parts> parts_;
    std::unique_ptr<MirrorIndex> index_;
};

// A layer file mapped read-only into memory, its header and length checked
// (not its checksum: that reads the whole file). The mirror index is copied
// into memory; the values are read through the mapping.
class MappedLayerFile {
  public:
    // Throws std::runtime_error as read_layer_file does, or when the file
    // cannot be mapped.
    MappedLayerFile(const std::filesystem::path& path, int geese);
    ~MappedLayerFile();
    MappedLayerFile(const MappedLayerFile&) = delete;
    MappedLayerFile& operator=(const MappedLayerFile&) = delete;

    LayerView view() const { return view_; }
    std::uint64_t bytes() const { return length_; }

  private:
    void* base_ = nullptr;
    std::uint64_t length_ = 0;
    std::unique_ptr<MirrorIndex> index_;
    LayerView view_;
};

}  // namespace foxgeese::tablebase
