// The Explorer's table and chain as undoable edits: loads (Generate, Open, Paste, an
// experiment file, Add token, Remove) read, prepare and analyse their table on a worker and
// land as one undo step that swaps shared, immutable tables; presets and chain edits are undo
// steps too (a slider drag is one). Loads run on one RunController: the newest wins, cancel or
// a preset drops the one in flight. The page shows what this says (errors, status, the lesson
// point) and keeps its chain controls in step through chainShown().
#pragma once

#include "app/io/logits_file.h"
#include "app/run/run_controller.h"
#include "engine/models/synthetic_vocabulary.h"
#include "engine/sampler/explorer_chain.h"
#include "engine/sampler/prepared_distribution.h"
#include "engine/sampler/sampler_analysis.h"
#include "ui/models/loaded_table.h"

#include <QList>
#include <QObject>
#include <QString>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

QT_BEGIN_NAMESPACE
class QUndoStack;
QT_END_NAMESPACE

namespace logitlab::ui {

class LogitsTableModel;

class ExplorerTableController : public QObject {
    Q_OBJECT
public:
    ExplorerTableController(LogitsTableModel* model, QUndoStack* undo, QObject* parent = nullptr);

    // Each is one undo step once its table is in. Problems found before loading (a bad spec, a
    // missing file) are reported at once, and openLogitsFile / openStateFile return them;
    // problems in the contents when the load ends.
    void generateVocabulary(const engine::SyntheticSpec& spec);
    // A text file loads at once; a model's dump (.npy, .npz, safetensors) is first scanned on
    // the worker (entropy per step, with progress and cancel) and stepsScanned is emitted, so
    // the page can ask which step; openLogitsRow then loads it.
    QString openLogitsFile(const QString& path);  // empty when the load (or scan) started
    void openLogitsRow(const QString& path, const app::LogitsFileRequest& request);
    QString openStateFile(const QString& path);  // an Explorer experiment (.json)
    // A GGUF model's next-token distribution after `prompt`, run on the worker.
    void openModelPrompt(const QString& modelPath, const QString& prompt);
    void pasteText(const QString& text);
    void addToken();
    void removeTokens(std::vector<int> rows);  // rows of the model
    void applyPreset(int index);
    // A distribution handed over by another page (the Loop page's step), as one undo step, with
    // the sender's chain when given (a Loop step's), else the page's own.
    void useDistribution(engine::Distribution distribution, const QString& source,
                         const std::optional<engine::ExplorerChain>& chain = std::nullopt);
    // A chain from the controls, as an undo step (steps with the same merge serial merge).
    void editChain(const engine::ExplorerChain& chain, bool temperatureOnly);
    void endMerge() { ++m_mergeSerial; }  // the slider was released: the next step is new
    // Stops a load in flight (its result is dropped) and says `message`; nothing when none runs.
    void dropLoad(const QString& message);

    bool loading() const { return m_loadRuns->isRunning(); }
    app::RunControllerBase* loadRuns() const { return m_loadRuns; }
    const QString& source() const { return m_source; }  // where the table came from, for provenance

signals:
    // The chain the table is shown with changed (a load, undo, a preset): the controls follow.
    void chainShown(const engine::ExplorerChain& chain);
    // A background load ended: its table is in, or its error shown, or it was cancelled.
    // Not emitted for a load a newer one superseded (that one's end follows).
    void loadFinished();
    void errorRaised(const QString& message);
    void errorCleared();
    void statusMessage(const QString& message);
    void lessonPointChanged(const QString& point);
    // An experiment file brought its draw settings.
    void drawSettingsLoaded(const QString& rng, quint64 seed, qint64 draws);
    void barsLoaded(int bars);  // the probability chart's top N, from a file
    void tokenAdded();
    // The steps of a dump's array (batch 0), with their entropy at T = 1; `array` is the .npz
    // member or safetensors tensor read ("" for the only one), `what` describes the file.
    // `batched`: the array is [batch, steps, V] (the steps are batch 0's).
    void stepsScanned(const QString& path, const QString& array, const QList<QList<double>>& entropy,
                      const QString& what, bool batched);

private:
    using LoadRead = std::function<LoadedTable()>;
    using LoadLanding = std::function<void(LoadedTable&)>;
    // Runs `read`, the preparation of its table and its analysis on the pool, then `land` on
    // the UI thread with the result (a failed read raises its error instead).
    void startLoad(const QString& message, LoadRead read, LoadLanding land);
    void replaceAll(engine::Distribution distribution, const engine::ExplorerChain& chain, const QString& what,
                    const QString& source);
    // One undo step replacing the table and chain; `source` is recorded in provenance.
    // `analysis`: the table's computed columns under `chain`, when a loader worked them out.
    void replaceTable(std::shared_ptr<const engine::PreparedDistribution> table, const engine::ExplorerChain& chain,
                      const QString& what, const QString& source,
                      std::optional<engine::SamplerAnalysis> analysis = std::nullopt);
    void showTable(const std::shared_ptr<const engine::PreparedDistribution>& table, const engine::ExplorerChain& chain,
                   const QString& source, std::optional<engine::SamplerAnalysis> analysis = std::nullopt);
    void applyChain(const engine::ExplorerChain& chain);

    LogitsTableModel* m_model;
    QUndoStack* m_undo;
    app::RunController<LoadedTable>* m_loadRuns;
    QString m_source;
    int m_mergeSerial = 0;
};

}  // namespace logitlab::ui
