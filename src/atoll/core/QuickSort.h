#pragma once
// A deterministic in-place sort. std::sort's algorithm differs between standard libraries, so
// elements that compare equal may end in different orders on different platforms; this one is
// the same code everywhere (median-of-three quicksort, insertion sort for short ranges).

#include <cstddef>
#include <functional>
#include <utility>

namespace atl {

namespace detail {
template <class Iterator, class Compare>
void insertion_sort(Iterator begin, Iterator end, Compare& less) {
  if (begin == end) return;
  for (Iterator i = begin + 1; i != end; ++i) {
    auto value = std::move(*i);
    Iterator j = i;
    while (j != begin && less(value, *(j - 1))) {
      *j = std::move(*(j - 1));
      --j;
    }
    *j = std::move(value);
  }
}
}  // namespace detail

/// Sorts [begin, end) with `less`; the result depends only on the input and `less`.
template <class Iterator, class Compare>
void quick_sort(Iterator begin, Iterator end, Compare less) {
  constexpr std::ptrdiff_t k_insertion_threshold = 16;
  while (end - begin > k_insertion_threshold) {
    // Median of three to the front, then partition around it (Hoare).
    Iterator mid = begin + (end - begin) / 2;
    Iterator last = end - 1;
    if (less(*mid, *begin)) std::swap(*mid, *begin);
    if (less(*last, *begin)) std::swap(*last, *begin);
    if (less(*last, *mid)) std::swap(*last, *mid);
    std::swap(*begin, *mid);  // pivot at begin
    Iterator i = begin;
    Iterator j = end;
    for (;;) {
      do ++i;
      while (i < end && less(*i, *begin));
      do --j;
      while (less(*begin, *j));
      if (i >= j) break;
      std::swap(*i, *j);
    }
    std::swap(*begin, *j);
    // Recurse into the smaller half, loop on the larger: O(log n) stack.
    if (j - begin < end - (j + 1)) {
      quick_sort(begin, j, less);
      begin = j + 1;
    } else {
      quick_sort(j + 1, end, less);
      end = j;
    }
  }
  detail::insertion_sort(begin, end, less);
}

/// Sorts [begin, end) ascending with operator<.
template <class Iterator>
void quick_sort(Iterator begin, Iterator end) {
  quick_sort(begin, end, std::less<>());
}

}  // namespace atl
