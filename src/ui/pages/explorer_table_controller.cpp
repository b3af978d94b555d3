#include "ui/pages/explorer_table_controller.h"

#include "app/io/file_sha256.h"
#include "app/io/gguf_model_file.h"
#include "app/io/input_file.h"
#include "app/io/logits_array.h"
#include "app/io/logits_file.h"
#include "app/kinds/explorer_state.h"
#include "charts/probability_chart.h"
#include "engine/core/number_format.h"
#include "engine/io/logits_format.h"
#include "engine/io/logits_parser.h"
#include "engine/io/pasted_table.h"
#include "engine/io/tensor_layout.h"
#include "engine/sampler/distribution_edit.h"
#include "engine/sampler/lesson_presets.h"
#include "ui/models/function_command.h"
#include "ui/models/logits_table_model.h"

#include <QFileInfo>
#include <QStringList>
#include <QUndoStack>

#include <utility>

namespace logitlab::ui {

namespace {

QString number(double v) { return QString::fromStdString(engine::formatDouble(v)); }

}  // namespace

ExplorerTableController::ExplorerTableController(LogitsTableModel* model, QUndoStack* undo, QObject* parent)
    : QObject(parent), m_model(model), m_undo(undo),
      m_loadRuns(new app::RunController<LoadedTable>(app::RunControllerBase::Mode::Supersede, this)),
      m_source(tr("lesson preset: %1").arg(QString::fromStdString(engine::lessonPresets().front().name)))
{
}

void ExplorerTableController::generateVocabulary(const engine::SyntheticSpec& spec)
{
    if (auto problem = engine::validateSynthetic(spec)) {
        emit errorRaised(QString::fromStdString(*problem));
        return;
    }
    const bool zipf = spec.shape == engine::SyntheticSpec::Shape::Zipf;
    const QString shape = zipf ? tr("Zipf s = %1").arg(number(spec.exponent))
                               : tr("normal μ = %1, σ = %2").arg(number(spec.mean), number(spec.deviation));
    const QString source = tr("synthetic %1, V = %2, seed %3").arg(shape).arg(spec.size).arg(spec.seed);
    startLoad(
        tr("Generating %L1 tokens...").arg(spec.size),
        [spec] { return LoadedTable::of(engine::syntheticVocabulary(spec)); },
        [this, spec, source](LoadedTable& loaded) {
            replaceTable(loaded.table, m_model->chain(), tr("Generate %1 tokens").arg(spec.size), source,
                         std::move(loaded.analysis));
            emit lessonPointChanged(tr("%L1 tokens: the chart shows the most likely (Bars: how many) and one bar "
                                       "for the rest of the vocabulary.")
                                        .arg(spec.size));
            emit statusMessage(tr("Generated %1").arg(source));
        });
}

QString ExplorerTableController::openLogitsFile(const QString& path)
{
    // A file that cannot even be opened is said at once; what is wrong inside it, when the
    // worker has read it.
    if (auto problem = app::logitsFileProblem(path)) {
        const QString message = QString::fromStdString(*problem);
        emit errorRaised(message);
        return message;
    }
    if (app::fileFormat(path) == engine::LogitsFormat::Text) {  // 16 bytes read: cheap on the UI thread
        openLogitsRow(path, {});
        return {};
    }
    emit statusMessage(tr("Scanning the steps of %1...").arg(path));
    m_loadRuns->start(
        [path](const app::WorkControl& control) {
            // A file of several arrays: the one called "logits" (as docs/import.md writes them).
            QString array;
            auto summary = app::summarizeSteps(path, array, 0, control);
            if (!summary) {
                array = QStringLiteral("logits");
                auto named = app::summarizeSteps(path, array, 0, control);
                if (!named)
                    return LoadedTable::failure(QString::fromStdString(summary.error()));
                summary = std::move(named);
            }
            LoadedTable scanned;
            scanned.steps = std::move(summary).value();
            scanned.array = array;
            // Every batch of a [batch, steps, V] array, so the dialog can list the batch chosen:
            // the whole file read once, as for a [steps, V] array of the same size.
            const auto& shape = scanned.steps->shape;
            if (shape.size() == 3) {
                scanned.batchEntropy.push_back(scanned.steps->entropy);
                for (std::uint64_t b = 1; b < shape[0]; ++b) {
                    auto more = app::summarizeSteps(path, array, b, control);
                    if (!more)
                        return LoadedTable::failure(QString::fromStdString(more.error()));
                    scanned.batchEntropy.push_back(std::move(more->entropy));
                }
            }
            return scanned;
        },
        [this, path](LoadedTable& scanned) {
            emit loadFinished();
            if (!scanned.steps) {
                emit errorRaised(scanned.error);
                return;
            }
            QList<QList<double>> entropy;
            if (scanned.batchEntropy.empty())
                entropy << QList<double>(scanned.steps->entropy.begin(), scanned.steps->entropy.end());
            for (const auto& batch : scanned.batchEntropy)
                entropy << QList<double>(batch.begin(), batch.end());
            const QString what = tr("%1%2: shape %3 (%4), %L5 steps")
                                     .arg(QFileInfo(path).fileName(),
                                          scanned.array.isEmpty() ? QString() : tr(", array %1").arg(scanned.array),
                                          QString::fromStdString(engine::shapeText(scanned.steps->shape)),
                                          QString::fromStdString(engine::logitsFormatName(scanned.steps->format)))
                                     .arg(entropy.front().size());
            emit statusMessage(tr("Scanned %L1 steps of %2").arg(entropy.front().size()).arg(path));
            emit stepsScanned(path, scanned.array, entropy, what, scanned.steps->shape.size() == 3);
        });
    return {};
}

void ExplorerTableController::openLogitsRow(const QString& path, const app::LogitsFileRequest& request)
{
    const QString name = QFileInfo(path).fileName();
    startLoad(
        tr("Reading %1...").arg(path),
        [path, request] {
            auto result = app::readLogitsFile(path, request);
            if (!result)
                return LoadedTable::failure(QString::fromStdString(result.error()));
            LoadedTable loaded = LoadedTable::of(std::move(result->distribution));
            loaded.warning = QString::fromStdString(result->vocabularyNote);
            if (!result->shape.empty()) {
                // Provenance names the exact file: its step and hash (and the vocabulary's).
                loaded.array =
                    QStringLiteral("%1step %2 of %3, sha256=%4")
                        .arg((request.array.isEmpty() ? QString() : request.array + QStringLiteral(", ")) +
                             (result->shape.size() == 3 ? QStringLiteral("batch %1, ").arg(result->batch) : QString()))
                        .arg(result->step)
                        .arg(QString::fromStdString(engine::shapeText(result->shape)),
                             app::fileSha256(path).value_or(QStringLiteral("unreadable")));
                if (!request.vocabulary.isEmpty())
                    loaded.array +=
                        QStringLiteral(", vocabulary %1 sha256=%2")
                            .arg(QFileInfo(request.vocabulary).fileName(),
                                 app::fileSha256(request.vocabulary).value_or(QStringLiteral("unreadable")));
            }
            return loaded;
        },
        [this, path, name](LoadedTable& loaded) {
            const QString source =
                loaded.array.isEmpty() ? tr("file: %1").arg(name) : tr("file: %1 (%2)").arg(name, loaded.array);
            replaceTable(loaded.table, m_model->chain(), tr("Open %1").arg(name), source, std::move(loaded.analysis));
            emit statusMessage(loaded.warning.isEmpty()
                                   ? tr("Read %1 tokens from %2").arg(m_model->rowCount()).arg(path)
                                   : loaded.warning);
        });
}

void ExplorerTableController::openModelPrompt(const QString& modelPath, const QString& prompt)
{
    const QString name = QFileInfo(modelPath).fileName();
    startLoad(
        tr("Running %1 over the prompt...").arg(name),
        [modelPath, prompt] {
            auto next = app::ggufNextTokenDistribution(modelPath, prompt);
            if (!next)
                return LoadedTable::failure(QString::fromStdString(next.error()));
            LoadedTable loaded = LoadedTable::of(std::move(next).value());
            loaded.array = app::ggufFileProvenance(modelPath, QString());
            return loaded;
        },
        [this, name, prompt](LoadedTable& loaded) {
            replaceTable(loaded.table, m_model->chain(), tr("Model %1").arg(name),
                         tr("model: %1, the next token after the prompt \"%2\"").arg(loaded.array, prompt),
                         std::move(loaded.analysis));
            emit statusMessage(
                tr("%1: the next token after the prompt, %L2 tokens").arg(name).arg(m_model->rowCount()));
        });
}

QString ExplorerTableController::openStateFile(const QString& path)
{
    // Not a regular file (a device, a FIFO) or over the size limit: said at once, never read.
    if (auto problem = app::inputFileProblem(path))
        return QString::fromStdString(*problem);
    const QString name = QFileInfo(path).fileName();
    startLoad(
        tr("Opening %1...")
            .arg(path),  // read and parsed on the worker: a 262,144-token experiment is megabytes of JSON
        [path, name] {
            const auto bytes = app::readInputFile(path);
            if (!bytes)
                return LoadedTable::failure(QString::fromStdString(bytes.error()));
            auto state = app::explorerStateFromJson(bytes.value(), name);
            if (!state)
                return LoadedTable::failure(QString::fromStdString(state.error()));
            LoadedTable loaded = LoadedTable::of(std::move(state.value().distribution));
            loaded.experiment = std::move(state).value();
            return loaded;
        },
        [this, name](LoadedTable& loaded) {
            const app::ExplorerState& state = *loaded.experiment;
            emit drawSettingsLoaded(state.rng, state.seed, state.draws);
            emit barsLoaded(state.bars);
            replaceTable(loaded.table, state.chain, tr("Open %1").arg(name), tr("experiment: %1").arg(name),
                         std::move(loaded.analysis));
        });
    return {};
}

void ExplorerTableController::pasteText(const QString& text)
{
    startLoad(
        tr("Reading the pasted rows..."),
        [text] {
            auto table = engine::parsePastedTable(text.toStdString());
            const auto good = table.distribution.logits.size();
            QStringList problems;
            for (const auto& p : table.problems)
                problems << tr("row %1: %2").arg(p.row).arg(QString::fromStdString(p.message));
            if (good == 0)
                return LoadedTable::failure(
                    problems.isEmpty() ? tr("Paste: the clipboard holds no token/logit rows.")
                                       : tr("Paste: no usable rows; %1.").arg(problems.join(QStringLiteral("; "))));
            if (auto problem = engine::validateLogits(table.distribution.logits))
                return LoadedTable::failure(tr("Paste: %1.").arg(QString::fromStdString(*problem)));
            LoadedTable loaded = LoadedTable::of(std::move(table.distribution));
            if (!problems.isEmpty())
                loaded.warning = tr("Pasted %1 rows; skipped %2 bad rows: %3.")
                                     .arg(good)
                                     .arg(problems.size())
                                     .arg(problems.join(QStringLiteral("; ")));
            return loaded;
        },
        [this](LoadedTable& loaded) {
            replaceTable(loaded.table, m_model->chain(),
                         tr("Paste %1 rows").arg(loaded.table->distribution.logits.size()), tr("pasted rows"),
                         std::move(loaded.analysis));
            if (!loaded.warning.isEmpty())
                emit errorRaised(loaded.warning);
        });
}

void ExplorerTableController::addToken()
{
    // Copying a vocabulary of 262,144 names and sorting it again is a load like any other: it
    // runs on the worker, so the UI thread only swaps the table in.
    const QString source = m_source;
    const QString name = tr("token %1").arg(m_model->rowCount());
    startLoad(
        tr("Adding a token..."),
        [table = m_model->table(), name] {
            return LoadedTable::of(engine::withTokenAppended(table->distribution, name.toStdString()));
        },
        [this, source](LoadedTable& loaded) {
            replaceTable(loaded.table, m_model->chain(), tr("Add token"), source, std::move(loaded.analysis));
            emit tokenAdded();
        });
}

void ExplorerTableController::removeTokens(std::vector<int> rows)
{
    if (rows.empty()) {
        emit errorRaised(tr("Select the rows to remove first."));
        return;
    }
    if (static_cast<Eigen::Index>(rows.size()) >= m_model->distribution().logits.size()) {
        emit errorRaised(tr("At least one token must stay."));
        return;
    }
    const QString source = m_source;
    const int removed = static_cast<int>(rows.size());
    startLoad(
        tr("Removing %n token(s)...", nullptr, removed),
        [table = m_model->table(), rows = std::move(rows)] {
            auto kept = engine::withoutTokens(table->distribution, rows);
            if (!kept)
                return LoadedTable::failure(
                    tr("Cannot remove those rows: %1.").arg(QString::fromStdString(kept.error())));
            return LoadedTable::of(std::move(kept).value());
        },
        [this, source, removed](LoadedTable& loaded) {
            replaceTable(loaded.table, m_model->chain(), tr("Remove %n token(s)", nullptr, removed), source,
                         std::move(loaded.analysis));
        });
}

void ExplorerTableController::startLoad(const QString& message, LoadRead read, LoadLanding land)
{
    // The newest load wins: the one in flight is stopped and its result dropped.
    emit statusMessage(message);
    m_loadRuns->start(
        [read = std::move(read), pageChain = m_model->chain()](const app::WorkControl& control) {
            LoadedTable loaded = read();
            // Everything that scans or sorts the vocabulary is done here, once: the orders by
            // logit and by name, and the computed columns under the chain it will be shown with.
            if (loaded.error.isEmpty() && !control.isCancelled()) {
                loaded.table = std::make_shared<const engine::PreparedDistribution>(
                    engine::prepareDistribution(std::move(loaded.distribution)));
                loaded.analysedChain = loaded.chainWith(pageChain);
                loaded.analysis = ExplorerSnapshot::analyse(*loaded.table, loaded.analysedChain);
            }
            return loaded;
        },
        [this, land = std::move(land)](LoadedTable& loaded) {
            if (loaded.chainWith(m_model->chain()) != loaded.analysedChain)
                loaded.analysis.reset();  // the chain was changed while loading: the model analyses again
            if (loaded.table)
                land(loaded);
            else
                emit errorRaised(loaded.error);
            emit loadFinished();
        });
}

void ExplorerTableController::dropLoad(const QString& message)
{
    // The table stays as it is; the load's result, should it still come, is dropped.
    if (!m_loadRuns->cancel())
        return;
    emit statusMessage(message);
    emit loadFinished();
}

void ExplorerTableController::applyPreset(int index)
{
    const auto& all = engine::lessonPresets();
    if (index < 0 || index >= static_cast<int>(all.size()))
        return;
    const auto& preset = all[static_cast<std::size_t>(index)];
    const QString name = QString::fromStdString(preset.name);
    // The newest action wins: a load still running would otherwise replace the preset on landing.
    dropLoad(tr("Loading stopped for the preset."));
    // The lesson's situations run under the lesson's rules, with no further stage.
    replaceAll(preset.distribution, engine::ExplorerChain{engine::Semantics::Lesson, preset.settings, {}, {}},
               tr("Preset: %1").arg(name), tr("lesson preset: %1").arg(name));
    // "Back to the lesson" means its draws too: mulberry32, seed 42, 1,000 draws (493 / 393 / 114).
    const app::ExplorerState lessonDraws;
    emit drawSettingsLoaded(lessonDraws.rng, lessonDraws.seed, lessonDraws.draws);
    emit lessonPointChanged(QString::fromStdString(preset.point));
    emit statusMessage(QString::fromStdString(preset.point));
}

void ExplorerTableController::editChain(const engine::ExplorerChain& chain, bool temperatureOnly)
{
    const engine::ExplorerChain before = m_model->chain();
    // A chain the preset cannot run is shown by the controls and not applied: the page keeps
    // computing with the last good one.
    if (before == chain || engine::validateExplorerChain(chain))
        return;
    const QString what =
        temperatureOnly ? tr("Temperature %1").arg(number(chain.lesson.temperature)) : tr("Sampler settings");
    // A slider drag is one undo step: steps of one drag share a merge id.
    m_undo->push(new FunctionCommand(
        what, [this, chain] { applyChain(chain); }, [this, before] { applyChain(before); },
        temperatureOnly ? 1 + m_mergeSerial % 1'000'000 : -1));
}

void ExplorerTableController::applyChain(const engine::ExplorerChain& chain)
{
    emit chainShown(chain);
    m_model->setChain(chain);
}

void ExplorerTableController::useDistribution(engine::Distribution distribution, const QString& source,
                                              const std::optional<engine::ExplorerChain>& chain)
{
    replaceAll(std::move(distribution), chain.value_or(m_model->chain()), tr("Use %1").arg(source), source);
}

void ExplorerTableController::replaceAll(engine::Distribution distribution, const engine::ExplorerChain& chain,
                                         const QString& what, const QString& source)
{
    replaceTable(
        std::make_shared<const engine::PreparedDistribution>(engine::prepareDistribution(std::move(distribution))),
        chain, what, source);
}

void ExplorerTableController::replaceTable(std::shared_ptr<const engine::PreparedDistribution> table,
                                           const engine::ExplorerChain& chain, const QString& what,
                                           const QString& source, std::optional<engine::SamplerAnalysis> analysis)
{
    // The step holds both tables, immutable and shared with the model: undo and redo swap
    // pointers instead of copying a vocabulary of 262,144 names. A loader's analysis serves the
    // first redo (the push); later ones analyse again, as undo does.
    auto before = m_model->table();
    const engine::ExplorerChain chainBefore = m_model->chain();
    const QString sourceBefore = m_source;
    auto first = std::make_shared<std::optional<engine::SamplerAnalysis>>(std::move(analysis));
    emit errorCleared();
    m_undo->push(new FunctionCommand(
        what,
        [this, table = std::move(table), chain, source, first] {
            showTable(table, chain, source, std::exchange(*first, std::nullopt));
        },
        [this, before = std::move(before), chainBefore, sourceBefore] {
            showTable(before, chainBefore, sourceBefore);
        }));
    // The sentence under the presets follows the table: a preset's or a generated
    // vocabulary's own sentence replaces this one right after.
    const int rows = m_model->rowCount();
    QString point = tr("%L1 tokens from %2.").arg(rows).arg(source);
    if (rows > app::ExplorerState::kDefaultBars + 1)
        point += tr(" The chart shows the most likely (Bars: how many) and one bar for the rest.");
    emit lessonPointChanged(point + tr(" The buttons above bring the lesson's examples back."));
}

void ExplorerTableController::showTable(const std::shared_ptr<const engine::PreparedDistribution>& table,
                                        const engine::ExplorerChain& chain, const QString& source,
                                        std::optional<engine::SamplerAnalysis> analysis)
{
    m_source = source;
    emit chainShown(chain);
    m_model->setTable(table, chain, std::move(analysis));
}

}  // namespace logitlab::ui
