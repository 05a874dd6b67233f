// SentencePiece's byte-fallback pieces: "<0xNN>" stands for the single byte NN.
#pragma once

#include <string>

namespace infergate {

// The byte a "<0xNN>" piece stands for (hex digits in either case), or -1 for any other piece.
int byte_of_piece(const std::string& piece);

}  // namespace infergate
