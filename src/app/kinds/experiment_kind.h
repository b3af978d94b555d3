// The registry of experiment kinds. A kind reads its part of an experiment file strictly, runs
// on the threaded runner with cancel and progress, and returns one ExperimentResult.
// `logitlab-cli run`, the pages' File > Open, and the examples find kinds here by the file's
// "experiment" value (or, for the Explorer's state files, their "format"); adding a kind is
// one class and one line in experimentKinds() (experiment_kind.cpp), nothing elsewhere.
#pragma once

#include "app/kinds/experiment_result.h"
#include "app/run/experiment_runner.h"
#include "engine/core/result.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <vector>

namespace logitlab::app {

// Where a run's file came from and how it runs.
struct RunContext {
    QString source;   // the file's name, for messages
    QString baseDir;  // where relative paths in the file start
    int threads = 1;
    WorkControl control;
};

// Which kind a file's bytes say they are, without parsing them (File > Open picks the page with
// it before the page reads the file on a worker): "explorer" for a state file, the
// "experiment" value for an experiment file, empty when neither can be seen.
QString sniffKindId(const QByteArray& bytes);

// A Failed result for bad input, as every kind's run() returns when check() would fail.
ExperimentResult badInputResult(const QString& kind, const QString& message);

class ExperimentKind {
public:
    virtual ~ExperimentKind() = default;

    // The file's "experiment" value ("junk-risk"); for the Explorer, "explorer".
    virtual QString id() const = 0;
    // The page that shows it ("Junk risk").
    virtual QString title() const = 0;
    // Reads the whole file strictly: an empty string when it can run, else
    // "<source>: <key>: <problem>".
    virtual QString check(const QJsonObject& root, const QString& source) const = 0;
    // Reads and runs. A bad file gives status Failed with badInput set.
    virtual ExperimentResult run(const QJsonObject& root, const RunContext& context) const = 0;
};

// The usual shape of a kind: a strict reader that turns the file into a Spec, and a run of
// that Spec. Each kind's file is one of these and the functions it names.
template <class Spec>
class SpecKind final : public ExperimentKind {
public:
    using Parse = engine::Result<Spec> (*)(const QJsonObject& root, const QString& source);
    using Run = ExperimentResult (*)(const Spec& spec, const RunContext& context);

    SpecKind(QString id, QString title, Parse parse, Run run)
        : m_id(std::move(id)), m_title(std::move(title)), m_parse(parse), m_run(run)
    {
    }
    QString id() const override { return m_id; }
    QString title() const override { return m_title; }
    QString check(const QJsonObject& root, const QString& source) const override
    {
        const auto spec = m_parse(root, source);
        return spec ? QString() : QString::fromStdString(spec.error());
    }
    ExperimentResult run(const QJsonObject& root, const RunContext& context) const override
    {
        const auto spec = m_parse(root, context.source);
        if (!spec)
            return badInputResult(m_id, QString::fromStdString(spec.error()));
        return m_run(spec.value(), context);
    }

private:
    QString m_id;
    QString m_title;
    Parse m_parse;
    Run m_run;
};

// Every kind this build has, in the order the CLI lists them.
const std::vector<const ExperimentKind*>& experimentKinds();
QStringList experimentKindIds();
const ExperimentKind* findExperimentKind(const QString& id);

// The kind of a parsed file: its "experiment" value, or the Explorer's state format. Errors
// name the file and the key.
engine::Result<const ExperimentKind*> kindOfFile(const QJsonObject& root, const QString& source);

}  // namespace logitlab::app
