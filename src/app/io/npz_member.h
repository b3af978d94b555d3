// One member of a NumPy .npz (a zip of .npy files, stored or deflated), read with libzip. The
// member is inflated into memory (a deflated stream cannot be mapped), so its size is capped
// and a larger member is refused with its size named before anything is allocated.
#pragma once

#include "engine/core/result.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace logitlab::app {

// 2 GiB: the inflated size of one member. Larger arrays belong in a .npy, which is mapped.
inline constexpr qint64 kMaxNpzMemberBytes = qint64{2} << 30;

struct NpzMember {
    QString name;  // as in the archive, "logits.npy"
    QByteArray bytes;
};

// The member called `array` ("logits" or "logits.npy"), or the only member when `array` is
// empty. Messages name the file, the member and what was expected.
// The members' names without ".npy", in archive order.
engine::Result<QStringList> npzMemberNames(const QString& path);

engine::Result<NpzMember> readNpzMember(const QString& path, const QString& array,
                                        qint64 maxBytes = kMaxNpzMemberBytes);

}  // namespace logitlab::app
