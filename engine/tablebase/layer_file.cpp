#include "engine/tablebase/layer_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <bit>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include "engine/rules/board.h"

namespace foxgeese::tablebase {

namespace {

static_assert(std::endian::native == std::endian::little,
              "the layer files are little-endian, read and written as in memory");

constexpr std::array<char, 8> kMagic = {'F', 'G', 'T', 'B', 'F', 'W', 'D', '1'};
constexpr std::uint32_t kVersion = 1;

struct Header {
    std::array<char, 8> magic;
    std::uint32_t version;
    std::uint32_t geese;
    std::uint32_t points;
    std::uint32_t reserved;
    std::uint64_t sets;
    std::uint64_t canonical_sets;
    std::uint64_t width;
    std::uint64_t bitmap_offset;
    std::uint64_t bitmap_bytes;
    std::uint64_t fox_offset;
    std::uint64_t geese_offset;
    std::uint64_t values_bytes;  // of each side
    std::uint64_t checksum_offset;
    std::uint64_t reserved2;
};
static_assert(sizeof(Header) == 104);

// FNV-1a over 64-bit words, fed in pieces of any length.
class Checksum {
  public:
    void add(const void* data, std::size_t length) {
        const auto* bytes = static_cast<const unsigned char*>(data);
        while (length > 0) {
            if (filled_ == 0 && length >= 8) {
                std::uint64_t word;
                std::memcpy(&word, bytes, 8);
                mix(word);
                bytes += 8;
                length -= 8;
                continue;
            }
            pending_[filled_++] = *bytes++;
            --length;
            if (filled_ == 8) flush();
        }
    }
    std::uint64_t finish() {
        if (filled_ > 0) {
            std::memset(pending_.data() + filled_, 0, 8 - filled_);
            flush();
        }
        return hash_;
    }

  private:
    void mix(std::uint64_t word) { hash_ = (hash_ ^ word) * 0x100000001b3ULL; }
    void flush() {
        std::uint64_t word;
        std::memcpy(&word, pending_.data(), 8);
        mix(word);
        filled_ = 0;
    }
    std::uint64_t hash_ = 0xcbf29ce484222325ULL;
    std::array<unsigned char, 8> pending_{};
    std::size_t filled_ = 0;
};

Header expected_header(int geese, std::uint64_t canonical_sets) {
    const GooseSetIndex sets(Board::cross33().point_count());
    Header h{};
    h.magic = kMagic;
    h.version = kVersion;
    h.geese = static_cast<std::uint32_t>(geese);
    h.points = static_cast<std::uint32_t>(sets.points());
    h.sets = sets.count(geese);
    h.canonical_sets = canonical_sets;
    h.width = static_cast<std::uint64_t>(sets.points() - geese);
    h.bitmap_offset = sizeof(Header);
    h.bitmap_bytes = (h.sets + 63) / 64 * 8;
    h.fox_offset = h.bitmap_offset + h.bitmap_bytes;
    h.values_bytes = canonical_sets * h.width;
    h.geese_offset = h.fox_offset + h.values_bytes;
    h.checksum_offset = h.geese_offset + h.values_bytes;
    return h;
}

// What is wrong with a header read for a layer of `geese` geese, or "".
std::string header_problem(const Header& h, int geese) {
    if (h.magic != kMagic) return "not a foxgeese tablebase layer";
    if (h.version != kVersion) return "format version " + std::to_string(h.version);
    if (h.geese != static_cast<std::uint32_t>(geese))
        return "a layer of " + std::to_string(h.geese) + " geese";
    const Header want = expected_header(geese, h.canonical_sets);
    if (std::memcmp(&want, &h, sizeof(Header)) != 0) return "sizes that do not fit its goose count";
    return "";
}

void read_exactly(std::ifstream& in, void* data, std::uint64_t length) {
    in.read(static_cast<char*>(data), static_cast<std::streamsize>(length));
    if (!in || static_cast<std::uint64_t>(in.gcount()) != length)
        throw std::runtime_error("the layer file ends early");
}

// A header read from `path` for a layer of `geese` geese, or
// std::runtime_error saying what is wrong with it.
void require_header(const Header& h, int geese, const std::filesystem::path& path) {
    if (const std::string problem = header_problem(h, geese); !problem.empty())
        throw std::runtime_error(path.string() + ": " + problem);
}

// The layer's mirror index from its bitmap, which `read(words, bytes)` fills,
// checked against the header's count of canonical sets.
template <class ReadBitmap>
std::unique_ptr<MirrorIndex> read_index(const Header& h, int geese,
                                        const std::filesystem::path& path, ReadBitmap read) {
    std::vector<std::uint64_t> words(h.bitmap_bytes / 8);
    read(words.data(), h.bitmap_bytes);
    auto index = std::make_unique<MirrorIndex>(geese, std::move(words));
    if (index->canonical_count() != h.canonical_sets)
        throw std::runtime_error(path.string() + ": its bitmap does not match its header");
    return index;
}

}  // namespace

std::filesystem::path layer_file_path(const std::filesystem::path& dir, int geese) {
    return dir / ("standard-forward-" + std::to_string(geese) + ".fgtb");
}

void write_layer_file(const std::filesystem::path& path, const MirrorIndex& index,
                      std::span<const std::uint8_t> fox_to_move,
                      std::span<const std::uint8_t> geese_to_move) {
    const Header h = expected_header(index.geese(), index.canonical_count());
    if (fox_to_move.size() != h.values_bytes || geese_to_move.size() != h.values_bytes ||
        index.bitmap_words().size() * 8 != h.bitmap_bytes)
        throw std::invalid_argument("a layer's parts do not fit its goose count");
    std::filesystem::path temporary = path;
    temporary += ".partial";
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        if (!out) throw std::runtime_error("cannot write " + temporary.string());
        Checksum sum;
        auto put = [&](const void* data, std::uint64_t length) {
            out.write(static_cast<const char*>(data), static_cast<std::streamsize>(length));
            sum.add(data, length);
        };
        put(&h, sizeof h);
        put(index.bitmap_words().data(), h.bitmap_bytes);
        put(fox_to_move.data(), h.values_bytes);
        put(geese_to_move.data(), h.values_bytes);
        const std::uint64_t checksum = sum.finish();
        out.write(reinterpret_cast<const char*>(&checksum), sizeof checksum);
        out.close();
        if (!out) throw std::runtime_error("cannot write " + temporary.string());
    }
    std::filesystem::rename(temporary, path);
}

bool check_layer_file(const std::filesystem::path& path, int geese, std::string& problem,
                      std::uint64_t& positions) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        problem = "missing";
        return false;
    }
    Header h{};
    in.read(reinterpret_cast<char*>(&h), sizeof h);
    if (!in) {
        problem = "shorter than its header";
        return false;
    }
    problem = header_problem(h, geese);
    if (!problem.empty()) return false;
    std::error_code error;
    if (std::filesystem::file_size(path, error) != h.checksum_offset + 8) {
        problem = "not the length its header gives";
        return false;
    }
    Checksum sum;
    sum.add(&h, sizeof h);
    std::vector<char> buffer(1 << 20);
    for (std::uint64_t left = h.checksum_offset - sizeof h; left > 0;) {
        const std::uint64_t n = std::min<std::uint64_t>(left, buffer.size());
        in.read(buffer.data(), static_cast<std::streamsize>(n));
        if (!in) {
            problem = "unreadable";
            return false;
        }
        sum.add(buffer.data(), n);
        left -= n;
    }
    std::uint64_t stored = 0;
    in.read(reinterpret_cast<char*>(&stored), sizeof stored);
    if (!in || stored != sum.finish()) {
        problem = "its checksum does not match: damaged";
        return false;
    }
    positions = 2 * h.values_bytes;
    return true;
}

LoadedLayer read_layer_file(const std::filesystem::path& path, int geese, bool fox_to_move) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot open " + path.string());
    Header h{};
    read_exactly(in, &h, sizeof h);
    require_header(h, geese, path);
    LoadedLayer layer;
    layer.index = read_index(
        h, geese, path, [&](void* words, std::uint64_t bytes) { read_exactly(in, words, bytes); });
    if (fox_to_move) {
        layer.fox_to_move.resize(h.values_bytes);
        read_exactly(in, layer.fox_to_move.data(), h.values_bytes);
    } else {
        in.seekg(static_cast<std::streamoff>(h.geese_offset));
    }
    layer.geese_to_move.resize(h.values_bytes);
    read_exactly(in, layer.geese_to_move.data(), h.values_bytes);
    return layer;
}

struct LayerFileReader::Parts {
    std::ifstream in;
    Header header;
};

LayerFileReader::LayerFileReader(const std::filesystem::path& path, int geese)
    : parts_(std::make_unique<Parts>()) {
    parts_->in.open(path, std::ios::binary);
    if (!parts_->in) throw std::runtime_error("cannot open " + path.string());
    read_exactly(parts_->in, &parts_->header, sizeof(Header));
    require_header(parts_->header, geese, path);
    index_ = read_index(parts_->header, geese, path, [&](void* words, std::uint64_t bytes) {
        read_exactly(parts_->in, words, bytes);
    });
}

LayerFileReader::~LayerFileReader() = default;

std::uint8_t LayerFileReader::at(const GooseSetIndex& sets, Side side, Bitboard geese, int fox) {
    const LayerPlace place = layer_place(sets, *index_, geese, fox);
    std::uint8_t value = kUnsolved;
    read_values(side, place.set * parts_->header.width + static_cast<std::uint64_t>(place.fox_slot),
                std::span<std::uint8_t>(&value, 1));
    return value;
}

void LayerFileReader::read_values(Side side, std::uint64_t first, std::span<std::uint8_t> out) {
    const Header& h = parts_->header;
    if (first + out.size() > h.values_bytes) throw std::out_of_range("past the layer's values");
    const std::uint64_t offset = (side == Side::kFox ? h.fox_offset : h.geese_offset) + first;
    parts_->in.seekg(static_cast<std::streamoff>(offset));
    read_exactly(parts_->in, out.data(), out.size());
}

MappedLayerFile::MappedLayerFile(const std::filesystem::path& path, int geese) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw std::runtime_error("cannot open " + path.string());
    struct stat st {};
    if (::fstat(fd, &st) != 0 || st.st_size < static_cast<off_t>(sizeof(Header))) {
        ::close(fd);
        throw std::runtime_error(path.string() + ": shorter than its header");
    }
    length_ = static_cast<std::uint64_t>(st.st_size);
    base_ = ::mmap(nullptr, length_, PROT_READ, MAP_SHARED, fd, 0);
    ::close(fd);  // the mapping keeps the file
    if (base_ == MAP_FAILED) {
        base_ = nullptr;
        throw std::runtime_error("cannot map " + path.string());
    }
    // Probes jump about the file: no read-ahead.
    ::madvise(base_, length_, MADV_RANDOM);
    try {
        const auto* bytes = static_cast<const std::uint8_t*>(base_);
        Header h{};
        std::memcpy(&h, bytes, sizeof h);
        require_header(h, geese, path);
        if (length_ != h.checksum_offset + 8)
            throw std::runtime_error(path.string() + ": not the length its header gives");
        index_ = read_index(h, geese, path, [&](void* words, std::uint64_t n) {
            std::memcpy(words, bytes + h.bitmap_offset, n);
        });
        view_ = LayerView{geese,
                          index_.get(),
                          {bytes + h.fox_offset, h.values_bytes},
                          {bytes + h.geese_offset, h.values_bytes}};
    } catch (...) {
        ::munmap(base_, length_);
        throw;
    }
}

MappedLayerFile::~MappedLayerFile() {
    if (base_ != nullptr) ::munmap(base_, length_);
}

LayerView LoadedLayer::view() const {
    return LayerView{index->geese(), index.get(), fox_to_move, geese_to_move};
}

}  // namespace foxgeese::tablebase
