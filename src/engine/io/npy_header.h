// NumPy's .npy format (numpy.lib.format, versions 1.0, 2.0 and 3.0): the magic "\x93NUMPY", a
// version, the header length and a Python dict literal with 'descr', 'fortran_order' and
// 'shape', then the raw data. Only floating-point arrays are logits: <f2 >f2 <f4 >f4 <f8 >f8;
// token ids (a `sequences` array) are <i4 >i4 <i8 >i8.
#pragma once

#include "engine/core/result.h"
#include "engine/io/tensor_layout.h"

#include <span>
#include <string>

namespace logitlab::engine {

// The layout of the array in `bytes` (the whole .npy file or .npz member). The data must be
// exactly as long as the header's shape says: a header that promises more or fewer bytes than
// follow it is refused with the offsets. `what` names the file in every message.
// `values` says which dtypes are accepted: floats (logits) or integers (token ids: <i4 >i4 <i8 >i8).
enum class ArrayValues { Floats, Integers };
Result<TensorLayout> parseNpy(std::span<const unsigned char> bytes, const std::string& what,
                              ArrayValues values = ArrayValues::Floats);

}  // namespace logitlab::engine
