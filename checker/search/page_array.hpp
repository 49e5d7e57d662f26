// A zeroed array of trivially copyable values; from 2 MiB up in its own memory mapping, backed by
// huge pages where the kernel grants them. The searches' hash tables are probed at random, one cache line
// per lookup in tens or hundreds of megabytes: with 4 KiB pages nearly every probe also misses
// the TLB and walks the page table, which costs as much as the miss itself. A 2 MiB page covers
// 512 times as much per TLB entry. Where transparent huge pages are off, this is plain memory.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdlib>
#include <cstdint>
#include <new>
#include <type_traits>
#include <utility>

namespace ordo::checker {

template <class T>
class PageArray {
  static_assert(std::is_trivially_copyable_v<T>, "the mapping's zero bytes are its values");

 public:
  PageArray() = default;
  explicit PageArray(std::size_t size) : size_(size) {
    if (size == 0) return;
    if (size > SIZE_MAX / sizeof(T) - huge_page) throw std::bad_alloc();
    if (size * sizeof(T) < huge_page) {
      // Small: from the heap, where a search of a few hundred states does not pay for a mapping.
      data_ = static_cast<T*>(std::calloc(size, sizeof(T)));
      if (data_ == nullptr) throw std::bad_alloc();
      return;
    }
    bytes_ = round_up(size * sizeof(T));
    // Mapped with a huge page's worth to spare, so that the array can start on a huge page
    // boundary; the spare ends are returned at once.
    const std::size_t mapped = bytes_ + huge_page;
    void* raw = ::mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) throw std::bad_alloc();
    const auto begin = reinterpret_cast<std::uintptr_t>(raw);
    const std::uintptr_t aligned = (begin + huge_page - 1) & ~std::uintptr_t{huge_page - 1};
    if (aligned > begin) ::munmap(raw, aligned - begin);
    const std::uintptr_t end = begin + mapped;
    if (end > aligned + bytes_) {
      ::munmap(reinterpret_cast<void*>(aligned + bytes_), end - (aligned + bytes_));
    }
    // Advice only: a kernel without transparent huge pages keeps small ones.
    ::madvise(reinterpret_cast<void*>(aligned), bytes_, MADV_HUGEPAGE);
    data_ = reinterpret_cast<T*>(aligned);
  }
  PageArray(PageArray&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)),
        size_(std::exchange(other.size_, 0)),
        bytes_(std::exchange(other.bytes_, 0)) {}
  PageArray& operator=(PageArray&& other) noexcept {
    PageArray(std::move(other)).swap(*this);
    return *this;
  }
  PageArray(const PageArray&) = delete;
  PageArray& operator=(const PageArray&) = delete;
  ~PageArray() {
    if (data_ == nullptr) return;
    if (bytes_ == 0) {
      std::free(data_);
    } else {
      ::munmap(data_, bytes_);
    }
  }

  void swap(PageArray& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    std::swap(bytes_, other.bytes_);
  }
  std::size_t size() const { return size_; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }

 private:
  static constexpr std::size_t huge_page = std::size_t{1} << 21;
  static std::size_t round_up(std::size_t bytes) { return (bytes + huge_page - 1) / huge_page * huge_page; }

  T* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t bytes_ = 0;  // of the mapping; 0 for an array from the heap
};

}  // namespace ordo::checker
