// The form that asks for a synthetic vocabulary: Zipf(s) or normal(mu, sigma) logits over V
// tokens, with a seed. It only collects and validates the numbers; the page asks the engine
// to generate and takes the result as one undoable step.
#pragma once

#include "engine/models/synthetic_vocabulary.h"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSpinBox;
QT_END_NAMESPACE

namespace logitlab::ui {

class SyntheticVocabularyForm : public QWidget {
    Q_OBJECT
public:
    explicit SyntheticVocabularyForm(QWidget* parent = nullptr);

    engine::SyntheticSpec spec() const;
    void setSpec(const engine::SyntheticSpec& spec);
    // The page disables it while a vocabulary is being built.
    QPushButton* generateButton() const { return m_generate; }

signals:
    void generateRequested(const engine::SyntheticSpec& spec);

private:
    void updateVisibleFields();

    QComboBox* m_shape;
    QSpinBox* m_size;
    QDoubleSpinBox* m_exponent;
    QDoubleSpinBox* m_mean;
    QDoubleSpinBox* m_deviation;
    QSpinBox* m_seed;
    QPushButton* m_generate;
    QLabel* m_exponentLabel;
    QLabel* m_meanLabel;
    QLabel* m_deviationLabel;
};

}  // namespace logitlab::ui
