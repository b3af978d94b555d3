// The controls of one experiment kind, as a widget a KindPage shows: what the controls say as
// the kind's file (the JSON `logitlab-cli run` reads), a file's experiment put into the
// controls, and the starting point. SpecForm<Spec> writes the round trip through the kind's
// strict reader once, so the page and the CLI accept the same experiments; a kind's form only
// maps its Spec to controls and back.
#pragma once

#include "app/run/experiment_runner.h"
#include "engine/core/result.h"

#include <QJsonObject>
#include <QList>
#include <QWidget>

namespace logitlab::ui {

class KindForm : public QWidget {
    Q_OBJECT
public:
    using QWidget::QWidget;

    // The experiment the controls describe, as its file's JSON; an error names the control.
    virtual engine::Result<QJsonObject> experimentJson() const = 0;
    // Puts a file's experiment into the controls: empty on success, else "<source>: <key>: ...".
    // Relative paths in it start at `baseDir`, which the form keeps for its file pickers.
    virtual QString setExperimentJson(const QJsonObject& root, const QString& source, const QString& baseDir) = 0;
    // File > New: the page's starting point.
    virtual void reset() = 0;
    // Controls that change how fast a run goes or how its results are drawn, never its numbers
    // (worker threads, a log axis): they do not make the results on screen stale.
    virtual QList<QWidget*> displayOnlyControls() const { return {}; }
    // The worker threads a run uses.
    virtual int workerThreads() const { return app::defaultThreadCount(); }
    // File > Open model: the GGUF model at `path` (absolute) becomes what the form's experiment
    // runs on. False when the kind runs no models.
    virtual bool useModel(const QString& path)
    {
        Q_UNUSED(path);
        return false;
    }

    QString baseDir() const { return m_baseDir; }

signals:
    // A control changed which rows the form shows, or the form changed its controls itself.
    void layoutChanged();

protected:
    void setBaseDir(const QString& dir) { m_baseDir = dir; }

private:
    QString m_baseDir;
};

// A form over one Spec type: `parse` is the kind's strict reader (parseSummation, ...) and
// app::toJson(Spec) its writer. A subclass maps the Spec to controls and back.
template <class Spec>
class SpecForm : public KindForm {
public:
    using Parse = engine::Result<Spec> (*)(const QJsonObject& root, const QString& source);

    explicit SpecForm(Parse parse, QWidget* parent = nullptr) : KindForm(parent), m_parse(parse) {}

    // The controls as a Spec, before the file format's own checks; an error names the control.
    virtual engine::Result<Spec> specFromControls() const = 0;
    virtual void setSpec(const Spec& spec) = 0;

    // The controls through the file format's checks: what the page runs and saves.
    engine::Result<Spec> spec() const
    {
        const auto raw = specFromControls();
        if (!raw)
            return engine::Error{raw.error()};
        return m_parse(toJson(raw.value()), tr("page"));
    }
    engine::Result<QJsonObject> experimentJson() const final
    {
        const auto checked = spec();
        if (!checked)
            return engine::Error{checked.error()};
        return toJson(checked.value());
    }
    QString setExperimentJson(const QJsonObject& root, const QString& source, const QString& baseDir) final
    {
        const auto parsed = m_parse(root, source);
        if (!parsed)
            return QString::fromStdString(parsed.error());
        setBaseDir(baseDir);
        setSpec(parsed.value());
        return {};
    }

private:
    Parse m_parse;
};

}  // namespace logitlab::ui
