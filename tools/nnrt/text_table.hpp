// Column-aligned text tables for the command line.
#pragma once

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace nnrt::tools {

class TextTable {
 public:
  explicit TextTable(std::vector<std::string> header) { rows_.push_back(std::move(header)); }
  void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  // Prints every row with columns padded to their widest cell; the last column is not padded.
  void print(FILE* out, const std::string& indent = "") const {
    std::vector<size_t> width;
    for (const auto& row : rows_) {
      width.resize(std::max(width.size(), row.size()));
      for (size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
    }
    for (const auto& row : rows_) {
      std::string line = indent;
      for (size_t c = 0; c < row.size(); ++c) {
        line += row[c];
        if (c + 1 < row.size()) line.append(width[c] - row[c].size() + 2, ' ');
      }
      std::fprintf(out, "%s\n", line.c_str());
    }
  }

 private:
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace nnrt::tools
