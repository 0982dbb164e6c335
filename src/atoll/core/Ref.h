#pragma once
// Intrusive reference counting: objects that derive from RefTarget carry their own count, so a
// Ref<T> is one pointer wide and a raw pointer can be turned back into a Ref safely.

#include <atomic>
#include <cstdint>
#include <utility>

namespace atl {

/// Base class for reference-counted objects. The count is atomic: Refs may be copied on any thread.
template <class T>
class RefTarget {
 public:
  RefTarget() = default;
  RefTarget(const RefTarget&) : ref_count_(0) {}  // a copy is a new object with no owners
  RefTarget& operator=(const RefTarget&) { return *this; }

  /// Number of Refs that own this object.
  uint32_t ref_count() const { return ref_count_.load(std::memory_order_relaxed); }
  void add_ref() const { ref_count_.fetch_add(1, std::memory_order_relaxed); }
  void release() const {
    // acq_rel: the thread that deletes must see every write made through other Refs.
    if (ref_count_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete static_cast<const T*>(this);
  }

 protected:
  ~RefTarget() = default;

 private:
  mutable std::atomic<uint32_t> ref_count_{0};
};

/// Owning pointer to a RefTarget-derived object.
template <class T>
class Ref {
 public:
  Ref() = default;
  Ref(std::nullptr_t) {}                  // NOLINT: implicit by design
  Ref(T* ptr) : ptr_(ptr) { acquire(); }  // NOLINT: implicit by design
  Ref(const Ref& other) : ptr_(other.ptr_) { acquire(); }
  Ref(Ref&& other) noexcept : ptr_(std::exchange(other.ptr_, nullptr)) {}
  template <class U>
  Ref(const Ref<U>& other) : ptr_(other.get()) {  // NOLINT: implicit upcast
    acquire();
  }
  ~Ref() { drop(); }

  Ref& operator=(const Ref& other) {
    if (ptr_ != other.ptr_) {
      other.acquire();
      drop();
      ptr_ = other.ptr_;
    }
    return *this;
  }
  Ref& operator=(Ref&& other) noexcept {
    if (this != &other) {
      drop();
      ptr_ = std::exchange(other.ptr_, nullptr);
    }
    return *this;
  }

  T* get() const { return ptr_; }
  T* operator->() const { return ptr_; }
  T& operator*() const { return *ptr_; }
  explicit operator bool() const { return ptr_ != nullptr; }
  bool operator==(const Ref& other) const { return ptr_ == other.ptr_; }
  bool operator==(std::nullptr_t) const { return ptr_ == nullptr; }

 private:
  void acquire() const {
    if (ptr_ != nullptr) ptr_->add_ref();
  }
  void drop() {
    if (ptr_ != nullptr) ptr_->release();
    ptr_ = nullptr;
  }

  T* ptr_ = nullptr;
};

/// Creates a T and returns the first Ref to it.
template <class T, class... Args>
Ref<T> make_ref(Args&&... args) {
  return Ref<T>(new T(std::forward<Args>(args)...));
}

}  // namespace atl
