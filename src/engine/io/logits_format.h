// Which reader a logits file needs, told from its first bytes rather than its name (a dump
// saved as out.bin or logits.npy.tmp is still read).
#pragma once

#include <span>
#include <string>

namespace logitlab::engine {

enum class LogitsFormat { Npy, Npz, Safetensors, Text };

// "\x93NUMPY" is .npy, "PK\x03\x04" (a zip) .npz, 8 bytes and then '{' safetensors; anything
// else is text (one number per line or token,logit CSV), which its parser checks.
LogitsFormat detectLogitsFormat(std::span<const unsigned char> head);

// "NumPy .npy", ...: for messages.
std::string logitsFormatName(LogitsFormat format);

}  // namespace logitlab::engine
