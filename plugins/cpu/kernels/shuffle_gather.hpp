// A CHANNEL_SHUFFLE over the last axis computed straight from the pieces its input was concatenated
// from, and written as the channel ranges that SLICEs take from it (the driver's channel-shuffle
// fusion). ShuffleNet v2 concatenates its two branches, shuffles the channels in two groups and
// splits them in halves for the next unit: as three operations every value is moved three times,
// here once.
//
// With C channels in g groups of k = C / g, shuffled channel c is channel (c % g) * k + c / g of the
// input; the input's channels are the pieces' side by side. A range [begin, end) of shuffled
// channels with begin and end multiples of g takes, for each group p, the input channels
// p * k + begin / g .. p * k + end / g - 1, which must lie in one piece.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace nnrt::cpu {

class ShuffleGather {
 public:
  struct Range {
    uint32_t begin = 0, end = 0;  // shuffled channels [begin, end)
  };
  // `widths`: the pieces' last dimensions (their sum C); `groups` divides C; `rows`: the elements of
  // every piece but its last dimension; one output per range. Empty, with why, when a range does not
  // start and end at multiples of the groups or reads a group's channels from two pieces.
  static std::optional<ShuffleGather> plan(std::vector<uint32_t> widths, uint32_t groups, size_t rows,
                                           const std::vector<Range>& ranges, std::string& why);

  // pieces[i]: piece i (4-byte elements, [rows, widths[i]]); outputs[r]: [rows, end - begin] of range r.
  void run(std::span<const void* const> pieces, std::span<void* const> outputs) const;

 private:
  struct Source {
    uint32_t piece = 0, offset = 0;  // group p's channels of a range start at this channel of this piece
  };
  struct Planned {
    Range range;
    std::vector<Source> sources;  // per group
  };
  std::vector<uint32_t> widths_;
  uint32_t groups_ = 1;
  size_t rows_ = 0;
  std::vector<Planned> ranges_;
};

}  // namespace nnrt::cpu
