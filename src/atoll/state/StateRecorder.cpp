#include "atoll/state/StateRecorder.h"

#include <bit>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <string>

#include "atoll/core/Hash.h"

namespace atl {

static_assert(std::endian::native == std::endian::little,
              "the state format is little-endian; a big-endian build would swap bytes here");

namespace {

constexpr uint32_t k_magic = 0x54535441u;  // "ATST"
// magic, version, parts (u32 each), payload length, checksum (u64 each).
constexpr size_t k_header_bytes = StateRecorder::k_header_bytes;
static_assert(k_header_bytes == 3 * 4 + 2 * 8);
constexpr size_t k_length_offset = 12;
constexpr size_t k_checksum_offset = 20;

// FNV-1a 64 over the payload's 8-byte little-endian words, the last one zero-padded: a
// corrupted byte anywhere changes it, at an eighth of the cost of hashing byte by byte.
uint64_t checksum(const uint8_t* data, size_t size) {
  uint64_t hash = k_fnv1a_basis;
  size_t i = 0;
  for (; i + 8 <= size; i += 8) {
    uint64_t word;
    std::memcpy(&word, data + i, 8);
    hash = (hash ^ word) * k_fnv1a_prime;
  }
  if (i < size) {
    uint64_t word = 0;
    std::memcpy(&word, data + i, size - i);
    hash = (hash ^ word) * k_fnv1a_prime;
  }
  return hash;
}

template <class T>
T load(const uint8_t* p) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  return value;
}

std::string format(float value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.9g", static_cast<double>(value));
  return text;
}

class Writer final : public StateStream {
 public:
  explicit Writer(std::vector<uint8_t>& out) : StateStream(Mode::save), out_(out) {}
  void floats(const char*, float* values, uint32_t count) override { put(values, 4 * count); }
  void u32s(const char*, uint32_t* values, uint32_t count) override { put(values, 4 * count); }
  void flag(const char*, bool& value) override {
    const uint8_t byte = value ? 1 : 0;
    put(&byte, 1);
  }
  void count(const char*, uint32_t& value, uint32_t) override { put(&value, 4); }
  void expect(const char*, uint32_t world_value) override { put(&world_value, 4); }

 private:
  void put(const void* data, size_t size) {
    const auto* bytes = static_cast<const uint8_t*>(data);
    out_.insert(out_.end(), bytes, bytes + size);
  }
  std::vector<uint8_t>& out_;
};

class Reader final : public StateStream {
 public:
  Reader(Mode mode, const uint8_t* data, size_t size)
      : StateStream(mode), data_(data), size_(size) {}
  uint64_t unread() const { return size_ - position_; }

  void floats(const char* name, float* values, uint32_t count) override {
    const uint8_t* in = take(name, 4 * size_t{count});
    if (in == nullptr) return;
    for (uint32_t i = 0; i < count; ++i) {
      const uint32_t saved = load<uint32_t>(in + 4 * i);
      if (restoring()) {
        values[i] = std::bit_cast<float>(saved);
      } else if (saved != std::bit_cast<uint32_t>(values[i])) {
        fail(component_name(name, i, count) + ": saved " + format(std::bit_cast<float>(saved)) +
             ", now " + format(values[i]));
        return;
      }
    }
  }
  void u32s(const char* name, uint32_t* values, uint32_t count) override {
    const uint8_t* in = take(name, 4 * size_t{count});
    if (in == nullptr) return;
    for (uint32_t i = 0; i < count; ++i) {
      const uint32_t saved = load<uint32_t>(in + 4 * i);
      if (restoring()) {
        values[i] = saved;
      } else if (saved != values[i]) {
        fail(component_name(name, i, count) + ": saved " + std::to_string(saved) + ", now " +
             std::to_string(values[i]));
        return;
      }
    }
  }
  void flag(const char* name, bool& value) override {
    const uint8_t* in = take(name, 1);
    if (in == nullptr) return;
    if (*in > 1) {
      fail(std::string(name) + ": " + std::to_string(*in) + " is not a flag (0 or 1)");
      return;
    }
    const bool saved = *in == 1;
    if (restoring())
      value = saved;
    else if (saved != value)
      fail(std::string(name) + ": saved " + (saved ? "true" : "false") + ", now " +
           (value ? "true" : "false"));
  }
  void count(const char* name, uint32_t& value, uint32_t min_element_bytes) override {
    const uint8_t* in = take(name, 4);
    if (in == nullptr) return;
    const uint32_t saved = load<uint32_t>(in);
    if (uint64_t{saved} * min_element_bytes > unread()) {
      fail(std::string(name) + ": " + std::to_string(saved) + " elements cannot fit in the " +
           std::to_string(unread()) + " bytes left (a corrupted or truncated state)");
      return;
    }
    if (restoring())
      value = saved;
    else if (saved != value)
      fail(std::string(name) + ": saved " + std::to_string(saved) + ", now " +
           std::to_string(value));
  }
  void expect(const char* name, uint32_t world_value) override {
    const uint8_t* in = take(name, 4);
    if (in == nullptr) return;
    const uint32_t saved = load<uint32_t>(in);
    if (saved != world_value)
      fail(std::string(name) + ": the state has " + std::to_string(saved) + ", the world has " +
           std::to_string(world_value));
  }

 private:
  // The next `size` bytes, or null (and the stream failed) when the state ends first.
  const uint8_t* take(const char* name, size_t size) {
    if (!ok()) return nullptr;
    if (size > unread()) {
      fail(std::string(name) + ": the state ends here (" + std::to_string(size) +
           " bytes needed, " + std::to_string(unread()) + " left)");
      return nullptr;
    }
    const uint8_t* p = data_ + position_;
    position_ += size;
    return p;
  }
  const uint8_t* data_;
  size_t size_;
  size_t position_ = 0;
};

}  // namespace

std::unique_ptr<StateStream> StateRecorder::begin_save(StateParts parts) {
  data_.assign(k_header_bytes, 0);
  const uint32_t words[3] = {k_magic, k_version, static_cast<uint32_t>(parts)};
  std::memcpy(data_.data(), words, sizeof(words));
  return std::make_unique<Writer>(data_);
}

void StateRecorder::finish_save() {
  const uint64_t length = data_.size() - k_header_bytes;
  const uint64_t sum = checksum(data_.data() + k_header_bytes, length);
  std::memcpy(data_.data() + k_length_offset, &length, 8);
  std::memcpy(data_.data() + k_checksum_offset, &sum, 8);
}

Result<StateParts> StateRecorder::check() const {
  if (data_.size() < k_header_bytes)
    return Error("state: " + std::to_string(data_.size()) +
                 " bytes, too short for a state's header (" + std::to_string(k_header_bytes) +
                 " bytes)");
  if (load<uint32_t>(data_.data()) != k_magic)
    return Error("state: not an Atoll state (it does not start with \"ATST\")");
  const uint32_t version = load<uint32_t>(data_.data() + 4);
  if (version != k_version)
    return Error("state: format version " + std::to_string(version) + ", this build reads " +
                 std::to_string(k_version));
  const uint32_t parts = load<uint32_t>(data_.data() + 8);
  if ((parts & ~static_cast<uint32_t>(StateParts::all)) != 0)
    return Error("state: unknown parts " + std::to_string(parts));
  const uint64_t length = load<uint64_t>(data_.data() + k_length_offset);
  if (length != data_.size() - k_header_bytes)
    return Error("state: the header says " + std::to_string(length) + " bytes follow, " +
                 std::to_string(data_.size() - k_header_bytes) + " do (truncated or padded)");
  if (load<uint64_t>(data_.data() + k_checksum_offset) !=
      checksum(data_.data() + k_header_bytes, length))
    return Error("state: checksum mismatch (the state is corrupted)");
  return StateParts(parts);
}

std::unique_ptr<StateStream> StateRecorder::begin_read(StateStream::Mode mode) const {
  ATOLL_ASSERT(mode != StateStream::Mode::save && data_.size() >= k_header_bytes);
  return std::make_unique<Reader>(mode, data_.data() + k_header_bytes,
                                  data_.size() - k_header_bytes);
}

uint64_t StateRecorder::unread_bytes(const StateStream& reader) {
  return static_cast<const Reader&>(reader).unread();
}

}  // namespace atl
