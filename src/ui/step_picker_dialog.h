// Which step of a model's dump to explore: every step with its entropy at T = 1 (sortable, so
// the uncertain steps are easy to find) and the vocabulary file that names the tokens.
#pragma once

#include <QDialog>
#include <QList>
#include <QString>

QT_BEGIN_NAMESPACE
class QLineEdit;
class QTableWidget;
QT_END_NAMESPACE

namespace logitlab::ui {

class StepPickerDialog : public QDialog {
    Q_OBJECT
public:
    // `entropy` by step; `what` describes the array ("out.npy: shape (200, 151936)").
    StepPickerDialog(const QString& what, const QList<double>& entropy, const QString& vocabulary, QWidget* parent = nullptr);

    int step() const;              // the selected step, from 0
    QString vocabulary() const;    // a tokenizer.json or text file, or empty

private:
    QTableWidget* m_steps;
    QLineEdit* m_vocabulary;
};

}  // namespace logitlab::ui
