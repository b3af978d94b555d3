#include "ui/forms/step_picker_dialog.h"

#include "ui/models/step_entropy_model.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace logitlab::ui {

StepPickerDialog::StepPickerDialog(const QString& what, const QList<QList<double>>& entropy, const QString& vocabulary,
                                   QWidget* parent)
    : QDialog(parent), m_entropy(entropy), m_batch(new QSpinBox(this)),  // parented: not in a layout for one batch
      m_model(new StepEntropyModel(this)), m_steps(new QTableView), m_vocabulary(new QLineEdit(vocabulary))
{
    setWindowTitle(tr("Choose a step"));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(tr("%1. Each row is one step of the reply; its entropy (at T = 1) says how unsure the "
                                "model was there. Click a column title to sort by it.")
                                 .arg(what));
    intro->setWordWrap(true);
    layout->addWidget(intro);

    // A [batch, steps, V] array: which batch row (generate's batch index); the steps listed are its.
    m_batch->setObjectName(QStringLiteral("batch"));
    m_batch->setRange(0, std::max(0, static_cast<int>(entropy.size()) - 1));
    m_batch->setToolTip(tr("The batch row of a [batch, steps, V] array: the steps below are this row's."));
    if (entropy.size() > 1) {
        auto* batchRow = new QHBoxLayout;
        batchRow->addWidget(new QLabel(tr("Batch (of %1):").arg(entropy.size())));
        batchRow->addWidget(m_batch);
        batchRow->addStretch();
        layout->addLayout(batchRow);
    } else {
        m_batch->hide();
    }
    connect(m_batch, &QSpinBox::valueChanged, this, &StepPickerDialog::listSteps);

    m_steps->setObjectName(QStringLiteral("steps"));
    m_steps->setModel(m_model);
    m_steps->verticalHeader()->hide();
    m_steps->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_steps->setSelectionMode(QAbstractItemView::SingleSelection);
    listSteps(0);
    m_steps->setSortingEnabled(true);
    m_steps->sortByColumn(StepEntropyModel::Step, Qt::AscendingOrder);
    m_steps->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_steps->selectRow(0);
    connect(m_steps, &QTableView::doubleClicked, this, &QDialog::accept);
    layout->addWidget(m_steps);

    auto* vocabularyRow = new QHBoxLayout;
    vocabularyRow->addWidget(new QLabel(tr("Vocabulary:")));
    m_vocabulary->setObjectName(QStringLiteral("vocabulary"));
    m_vocabulary->setPlaceholderText(tr("tokenizer.json or a text file, one token per line (optional)"));
    vocabularyRow->addWidget(m_vocabulary, 1);
    auto* browse = new QPushButton(tr("Browse..."));
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Vocabulary"), QString(),
                                                          tr("Vocabularies (*.json *.txt);;All files (*)"));
        if (!path.isEmpty())
            m_vocabulary->setText(path);
    });
    vocabularyRow->addWidget(browse);
    layout->addLayout(vocabularyRow);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(520, 480);
}

int StepPickerDialog::step() const { return std::max(0, m_model->stepAt(m_steps->currentIndex().row())); }

QString StepPickerDialog::vocabulary() const { return m_vocabulary->text().trimmed(); }

void StepPickerDialog::listSteps(int batch)
{
    // The order sorted last stays (the model keeps it); the first row is selected again.
    m_model->setEntropy(m_entropy.value(batch));
    m_steps->selectRow(0);
}

int StepPickerDialog::batch() const { return m_batch->value(); }

}  // namespace logitlab::ui
