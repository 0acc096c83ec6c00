#pragma once
// The tree's nodes: one contiguous block grown by realloc instead of std::vector's copy.
//
// Growing an arena happens inside one iteration, where neither the clock nor `stop` is looked
// at. std::vector copied the whole tree to its new block: 21 ms at 20 MB, 300 ms at 320 MB, a
// move answered past its clock. A node is trivially copyable, so realloc may move its bytes, and
// glibc grows a large block by remapping its pages (mremap) instead of copying them: 0.13 ms and
// 1.4 ms for the same sizes. Memory is still taken only as the tree grows.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <type_traits>

namespace rosen::search {

template <class T>
class NodeArena {
    static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                  "realloc moves the elements' bytes");

public:
    NodeArena() = default;
    ~NodeArena() { std::free(data_); }
    NodeArena(const NodeArena&) = delete;
    NodeArena& operator=(const NodeArena&) = delete;

    std::size_t size() const { return size_; }
    std::size_t capacity() const { return capacity_; }
    T& operator[](std::size_t i) { return data_[i]; }
    const T& operator[](std::size_t i) const { return data_[i]; }
    T* begin() { return data_; }
    T* end() { return data_ + size_; }

    // Room for `n` elements in all; std::bad_alloc (the elements kept as they were) if the
    // memory cannot be had.
    void reserve(std::size_t n) {
        if (n <= capacity_) return;
        if (n > SIZE_MAX / sizeof(T)) throw std::bad_alloc();
        void* grown = std::realloc(data_, n * sizeof(T));
        if (grown == nullptr) throw std::bad_alloc();
        data_ = static_cast<T*>(grown);
        capacity_ = n;
    }
    // A new element, value-initialised, at the end (growing by doubling if there is no room).
    T& emplace_back() {
        if (size_ == capacity_) reserve(capacity_ ? 2 * capacity_ : 16);
        return *::new (static_cast<void*>(data_ + size_++)) T();
    }
    void clear() { size_ = 0; }
    // Keeps the first `n` elements (n <= size()).
    void shrink_to(std::size_t n) { size_ = n < size_ ? n : size_; }

private:
    T* data_ = nullptr;
    std::size_t size_ = 0, capacity_ = 0;
};

}  // namespace rosen::search
