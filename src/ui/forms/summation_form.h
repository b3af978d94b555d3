// The summation-order experiment's controls: where the N terms come from (drawn, pasted or a
// file), the storage and accumulator formats, the orders, K seeded shuffles, the shapes of the
// blocked, SIMD and threaded orders, and the spread study. Only the rows of the chosen source
// are shown.
#pragma once

#include "app/kinds/summation_spec.h"
#include "ui/forms/kind_form.h"

#include <QList>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;
QT_END_NAMESPACE

namespace logitlab::ui {

class FileField;

class SummationForm : public SpecForm<app::SummationSpec> {
    Q_OBJECT
public:
    explicit SummationForm(QWidget* parent = nullptr);

    // 10,000 float32 normal terms, every order, 1,000 shuffles, the spread up to a million terms.
    static app::SummationSpec startSpec();

    engine::Result<app::SummationSpec> specFromControls() const override;
    void setSpec(const app::SummationSpec& spec) override;
    void reset() override;
    QList<QWidget*> displayOnlyControls() const override;
    int workerThreads() const override;

    QSpinBox* termsBox() const { return m_n; }
    QSpinBox* shufflesBox() const { return m_shuffles; }
    QSpinBox* workersBox() const { return m_workers; }
    QComboBox* distributionBox() const { return m_distribution; }
    QPlainTextEdit* pastedBox() const { return m_pasted; }

private:
    void showSourceRows();

    app::SummationSpec m_loaded;  // the name and spread budget come from here
    QFormLayout* m_form;
    FileField* m_fileRow;  // the terms file and its Browse button
    QComboBox* m_distribution;
    QSpinBox* m_n;
    QDoubleSpinBox* m_scale;
    QPlainTextEdit* m_pasted;
    QLineEdit* m_file;
    QComboBox* m_storage;
    QComboBox* m_accumulator;
    QList<QCheckBox*> m_methods;
    QSpinBox* m_shuffles;
    QSpinBox* m_seed;
    QSpinBox* m_split;
    QComboBox* m_lanes;
    QSpinBox* m_threads;
    QComboBox* m_spread;
    QSpinBox* m_workers;
};

}  // namespace logitlab::ui
