// Which step of a model's dump to explore: every step with its entropy at T = 1 (sortable, so
// the uncertain steps are easy to find), the batch row of a [batch, steps, V] array, and the
// vocabulary file that names the tokens. The list is a model over the entropies (no item per
// cell), so a dump of millions of steps opens in tens of megabytes.
#pragma once

#include <QDialog>
#include <QList>
#include <QString>

QT_BEGIN_NAMESPACE
class QLineEdit;
class QSpinBox;
class QTableView;
QT_END_NAMESPACE

namespace logitlab::ui {

class StepEntropyModel;

class StepPickerDialog : public QDialog {
    Q_OBJECT
public:
    // `entropy` by batch, then by step (one batch for a [steps, V] array: no batch selector);
    // `what` describes the array ("out.npy: shape (200, 151936)").
    StepPickerDialog(const QString& what, const QList<QList<double>>& entropy, const QString& vocabulary,
                     QWidget* parent = nullptr);

    int step() const;            // the selected step, from 0
    int batch() const;           // the batch chosen, from 0
    QString vocabulary() const;  // a tokenizer.json or text file, or empty

private:
    void listSteps(int batch);

    QList<QList<double>> m_entropy;
    QSpinBox* m_batch;
    StepEntropyModel* m_model;
    QTableView* m_steps;
    QLineEdit* m_vocabulary;
};

}  // namespace logitlab::ui
