#include "app/io/gguf_model_file.h"

#include "app/io/file_sha256.h"
#include "app/io/input_file.h"
#include "app/io/mapped_file.h"
#include "engine/core/work_limits.h"

#include <QFile>
#include <QFileInfo>
#include <QThread>

#include <algorithm>
#include <map>
#include <mutex>

#include <sys/stat.h>
#include <unistd.h>

namespace logitlab::app {

namespace {

struct OpenModels {
    std::mutex mutex;
    std::map<QString, std::weak_ptr<const engine::transformer::GgufModel>> byKey;
};

// The file as it is now: its canonical path, size and modification time. The time comes from
// stat(), not QFileInfo::lastModified(), which converts to local time through glibc's tzset on
// every call (worker threads open models too).
QString fileVersionKey(const QFileInfo& info)
{
    struct stat st {};
    const QByteArray native = QFile::encodeName(info.filePath());
    const qint64 nanoseconds = ::stat(native.constData(), &st) == 0
                                   ? qint64{st.st_mtim.tv_sec} * 1'000'000'000 + qint64{st.st_mtim.tv_nsec}
                                   : -1;
    return info.canonicalFilePath() + QLatin1Char('\n') + QString::number(info.size()) + QLatin1Char('\n') +
           QString::number(nanoseconds);
}

OpenModels& openModels()
{
    static OpenModels models;
    return models;
}

}  // namespace

qint64 modelMemoryLimit()
{
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long pageSize = sysconf(_SC_PAGE_SIZE);
    const qint64 physical = pages > 0 && pageSize > 0 ? qint64{pages} * pageSize : qint64{8} << 30;
    return std::max(qint64{1} << 30, physical - (qint64{1} << 30));
}

std::optional<std::string> modelSizeProblem(const QString& path, qint64 bytes, qint64 limit)
{
    if (bytes <= limit)
        return std::nullopt;
    const auto gib = [](qint64 n) { return QString::number(static_cast<double>(n) / (1 << 30), 'f', 1); };
    return QStringLiteral("%1: %2 GiB is more than this machine can hold in memory for a model (%3 GiB); every "
                          "token reads every weight, so a model must fit in memory (take a smaller or more "
                          "quantised file)")
        .arg(path, gib(bytes), gib(limit))
        .toStdString();
}

engine::Result<std::shared_ptr<const MappedFile>> modelFileBytes(const QString& path, const ReadProgress& progress)
{
    const qint64 limit = modelMemoryLimit();
    if (auto problem = modelSizeProblem(path, QFileInfo(path).size(), limit))
        return engine::Error{*problem};
    return MappedFile::read(path, progress, limit);
}

engine::Result<std::shared_ptr<const engine::transformer::GgufModel>> openGgufModel(const QString& path,
                                                                                    const ReadProgress& progress)
{
    const QFileInfo info(path);
    if (!info.exists())
        return engine::Error{path.toStdString() + ": no such file"};
    if (!info.isFile())
        return engine::Error{path.toStdString() + ": not a regular file (give a .gguf model file)"};
    const QString key = fileVersionKey(info);
    OpenModels& models = openModels();
    {
        std::lock_guard lock(models.mutex);
        if (auto open = models.byKey[key].lock())
            return open;
    }
    auto mapped = modelFileBytes(path, progress);
    if (!mapped)
        return engine::Error{mapped.error()};
    const std::shared_ptr<const MappedFile> file = std::move(mapped).value();
    auto model = engine::transformer::GgufModel::open(file, std::as_bytes(file->bytes()), path.toStdString());
    if (!model)
        return engine::Error{model.error()};
    std::lock_guard lock(models.mutex);
    models.byKey[key] = model.value();
    return model;
}

engine::Result<engine::Distribution> ggufNextTokenDistribution(const QString& path, const QString& prompt)
{
    auto model = openGgufModel(path);
    if (!model)
        return engine::Error{model.error()};
    // The last answer is kept: `compare` reads the distribution once per preset.
    static std::mutex lastMutex;
    static std::weak_ptr<const engine::transformer::GgufModel> lastModel;
    static QString lastPrompt;
    static engine::Distribution last;
    {
        std::lock_guard lock(lastMutex);
        if (lastModel.lock() == model.value() && lastPrompt == prompt)
            return last;
    }
    const QByteArray text = prompt.toUtf8();
    const auto ids = model.value()->encode(std::string_view(text.constData(), static_cast<std::size_t>(text.size())));
    if (ids.empty())
        return engine::Error{"prompt: the model's tokenizer reads no tokens in it (give some text)"};
    if (static_cast<std::int64_t>(ids.size()) > model.value()->maxPositions())
        return engine::Error{"prompt: " + std::to_string(ids.size()) + " tokens are more than the " +
                             std::to_string(model.value()->maxPositions()) + " positions this model runs"};
    auto source = engine::transformer::GgufModelSource::create(model.value(), static_cast<std::int64_t>(ids.size()),
                                                               std::max(1, QThread::idealThreadCount()));
    if (!source)
        return engine::Error{source.error()};
    engine::Distribution d;
    d.tokens = model.value()->tokenNames();
    d.logits.resize(static_cast<Eigen::Index>(d.tokens.size()));
    source.value()->logits(0, ids, d.logits.data());
    if (const auto fault = source.value()->fault())
        return engine::Error{path.toStdString() + ": " + *fault};
    std::lock_guard lock(lastMutex);
    lastModel = model.value();
    lastPrompt = prompt;
    last = d;
    return d;
}

std::optional<std::string> modelWorkProblem(std::uint64_t parameters, double passes, const std::string& key,
                                            const std::string& advice)
{
    return engine::checkWork(key, passes * static_cast<double>(parameters), kMaxModelWork, advice, "multiply-adds");
}

QString ggufFileProvenance(const QString& modelFile, const QString& baseDir)
{
    // A model of a gigabyte takes seconds to hash: once per file version, not once per run.
    static std::mutex mutex;
    static std::map<QString, QString> hashes;
    const QFileInfo info(resolvedPath(modelFile, baseDir));
    const QString key = fileVersionKey(info);
    QString hash;
    {
        std::lock_guard lock(mutex);
        hash = hashes[key];
    }
    if (hash.isEmpty()) {
        hash = fileSha256(info.filePath()).value_or(QString());
        if (!hash.isEmpty()) {
            std::lock_guard lock(mutex);
            hashes[key] = hash;
        }
    }
    return QStringLiteral("%1 sha256=%2").arg(modelFile, hash.isEmpty() ? QStringLiteral("unreadable") : hash);
}

QString describeGgufModel(const engine::transformer::GgufModel& model)
{
    const auto& c = model.config();
    return QStringLiteral("%1, %2 layers, n_embd %3, %4 heads (%5 KV), vocabulary %6")
        .arg(QString::fromStdString(engine::transformer::architectureName(c.arch)))
        .arg(c.layers)
        .arg(c.embedding)
        .arg(c.heads)
        .arg(c.kvHeads)
        .arg(c.vocabulary);
}

}  // namespace logitlab::app
