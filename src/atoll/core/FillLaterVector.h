#pragma once
// A list whose resize() and emplace_back() without arguments leave the new elements
// unwritten, for lists whose places are handed out on one thread and written in full later,
// on any thread (the narrow phase's reused pairs: the caller hands out the places in pair
// order, the workers fill them).
//
// Why: a std::vector value-initialises every new element, so the thread that grows the list
// writes every byte of it once, and the thread that fills it writes it again — and with two
// cores every one of those cache lines then moves from one core to the other.
//
// The elements must be implicit-lifetime types (aggregates, or trivially constructible and
// destructible: allocation creates them, C++20 [intro.object]) that are trivially copyable,
// and whoever takes a place must write the whole element before anything reads it.
// Construction with arguments (push_back, emplace_back(x)) works as in std::vector. The list
// grows in place (core/ReallocVector.h): the contact headers of a step, 0.7 MB on the pyramid,
// were copied when the narrow phase outgrew them, both copies resident for a moment.

#include "atoll/core/ReallocVector.h"

namespace atl {

template <class T>
using FillLaterVector = ReallocVector<T, true>;

}  // namespace atl
