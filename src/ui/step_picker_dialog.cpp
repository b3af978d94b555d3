#include "step_picker_dialog.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTableWidgetItem>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace logitlab::ui {

namespace {

QTableWidgetItem* numberItem(double value, int decimals)
{
    auto* item = new QTableWidgetItem;
    // The number itself, so sorting by the column sorts by value; the text is rounded.
    item->setData(Qt::DisplayRole, decimals < 0 ? value : std::round(value * std::pow(10.0, decimals)) / std::pow(10.0, decimals));
    item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    return item;
}

}  // namespace

StepPickerDialog::StepPickerDialog(const QString& what, const QList<QList<double>>& entropy, const QString& vocabulary,
                                   QWidget* parent)
    : QDialog(parent), m_entropy(entropy), m_batch(new QSpinBox(this)),  // parented: not in a layout for one batch
      m_steps(new QTableWidget(static_cast<int>(entropy.value(0).size()), 3)), m_vocabulary(new QLineEdit(vocabulary))
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
    m_steps->setHorizontalHeaderLabels({tr("Step"), tr("Entropy (nats)"), tr("Perplexity")});
    m_steps->verticalHeader()->hide();
    m_steps->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_steps->setSelectionMode(QAbstractItemView::SingleSelection);
    listSteps(0);
    m_steps->sortByColumn(0, Qt::AscendingOrder);
    m_steps->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_steps->selectRow(0);
    connect(m_steps, &QTableWidget::cellDoubleClicked, this, &QDialog::accept);
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

int StepPickerDialog::step() const
{
    const int row = m_steps->currentRow();
    return row < 0 ? 0 : m_steps->item(row, 0)->data(Qt::DisplayRole).toInt();
}

QString StepPickerDialog::vocabulary() const
{
    return m_vocabulary->text().trimmed();
}

void StepPickerDialog::listSteps(int batch)
{
    const QList<double> entropy = m_entropy.value(batch);
    m_steps->setSortingEnabled(false);  // rows filled in step order, then sorted as the user had them
    m_steps->setRowCount(static_cast<int>(entropy.size()));
    for (int i = 0; i < entropy.size(); ++i) {
        m_steps->setItem(i, 0, numberItem(i, -1));
        m_steps->setItem(i, 1, numberItem(entropy[i], 4));
        m_steps->setItem(i, 2, numberItem(std::exp(entropy[i]), 2));
    }
    m_steps->setSortingEnabled(true);
}

int StepPickerDialog::batch() const
{
    return m_batch->value();
}

}  // namespace logitlab::ui

