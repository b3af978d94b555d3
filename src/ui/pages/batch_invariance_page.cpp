#include "ui/pages/batch_invariance_page.h"

#include "app/kinds/batch_invariance_job.h"
#include "app/kinds/batch_invariance_spec.h"
#include "ui/forms/batch_invariance_form.h"
#include "ui/pages/results_pane.h"

#include <QComboBox>
#include <QGroupBox>
#include <QLabel>
#include <QLayout>
#include <QLocale>

namespace logitlab::ui {

using Spec = app::BatchInvarianceSpec;

BatchInvariancePage::BatchInvariancePage(QWidget* parent)
    : KindPage(app::batchInvarianceKind(), new BatchInvarianceForm, parent),
      m_form(static_cast<BatchInvarianceForm*>(form())), m_findings(new QLabel), m_fromLoop(new QLabel)
{
    m_findings->setObjectName(QStringLiteral("findings"));
    m_findings->setWordWrap(true);
    m_findings->setTextFormat(Qt::RichText);
    m_findings->setTextInteractionFlags(Qt::TextSelectableByMouse);
    results()->addBelowSummary(m_findings);
    m_fromLoop->setWordWrap(true);
    m_fromLoop->hide();
    // Under the buttons and the error line, above the stretch.
    auto* controls = static_cast<QBoxLayout*>(controlBox()->layout());
    controls->insertWidget(controls->count() - 1, m_fromLoop);
    connect(results(), &ResultsPane::resultShown, this, &BatchInvariancePage::showFindings);
    // File > Open model picks the model-decode study on it; a decode at every batch size of a
    // real model takes minutes, so it waits for Run (the steps and batch sizes first).
    setRunOnOpenModel(false);
    showFindings();
}

QString BatchInvariancePage::workedExample() const { return QStringLiteral(":/examples/batch-invariance-decode.json"); }

const app::BatchInvarianceOutcome* BatchInvariancePage::outcome() const
{
    return results()->details<app::BatchInvarianceOutcome>();
}

void BatchInvariancePage::showFindings()
{
    const app::BatchInvarianceOutcome* shown = outcome();
    if (!shown) {
        m_findings->setText(
            tr("Run to see which batch sizes change the greedy answer, and what batch-invariant kernels cost."));
        return;
    }
    const auto& o = *shown;
    const QLocale locale;
    QStringList lines;
    if (o.spec.study == Spec::Study::ModelDecode) {
        lines << tr("Plan: %1. The invariant kernel's greedy reply: <i>%2</i>")
                     .arg(o.plan.toHtmlEscaped(), o.model.referenceReply.toHtmlEscaped());
        for (const auto& row : o.model.rows)
            if (row.firstDivergent >= 0)
                lines << tr("Batch %1 (<i>%2</i>) leaves it at step %3 (invariant gap %4): <i>%5</i>")
                             .arg(row.batch)
                             .arg(row.kernel.toHtmlEscaped())
                             .arg(row.firstDivergent)
                             .arg(locale.toString(row.referenceGap, 'g', 3), row.reply.toHtmlEscaped());
    } else if (o.spec.study == Spec::Study::OneStep) {
        for (const auto& row : o.flips) {
            if (row.batch != 1)
                continue;
            lines << tr("<b>%1</b>: nearest tie at prompt %2, step %3; batch 1 (<i>%4</i>) picks token %5 with gap %6")
                         .arg(QString::fromStdString(row.precision))
                         .arg(row.prompt)
                         .arg(row.step)
                         .arg(QString::fromStdString(row.kernel))
                         .arg(row.token)
                         .arg(locale.toString(row.gap, 'g', 3));
        }
    } else {
        lines
            << tr("Plan: %1. Batch-invariant plan: <i>invariant</i> for every batch size.").arg(o.plan.toHtmlEscaped());
        if (!o.costs.empty()) {
            QStringList per;
            for (const auto& c : o.costs)
                per << tr("batch %1: %2 ms (<i>%3</i>) vs %4 ms (<i>invariant</i>)")
                           .arg(c.batch)
                           .arg(locale.toString(c.variableMs, 'f', 2), c.variableKernel)
                           .arg(locale.toString(c.invariantMs, 'f', 2));
            lines << tr("Cost of batch invariance on this load: <b>%1x</b> the variable plan's LM-head time (%2).")
                         .arg(locale.toString(o.costRatio, 'f', 2), per.join(QStringLiteral("; ")));
        }
    }
    m_findings->setText(lines.join(QStringLiteral("<br>")));
}

bool BatchInvariancePage::acceptDistribution(const HandOff& handOff)
{
    const engine::Distribution& distribution = handOff.distribution;
    const Eigen::Index n = distribution.logits.size();
    if (n < 2)
        return false;
    Eigen::Index first = 0;
    for (Eigen::Index i = 1; i < n; ++i)
        if (distribution.logits[i] > distribution.logits[first])
            first = i;
    Eigen::Index second = first == 0 ? 1 : 0;
    for (Eigen::Index i = 0; i < n; ++i)
        if (i != first && distribution.logits[i] > distribution.logits[second])
            second = i;
    const double gap = distribution.logits[first] - distribution.logits[second];
    const auto name = [&distribution](Eigen::Index id) {
        return QString::fromStdString(distribution.tokenName(id)).toHtmlEscaped();
    };
    m_form->studyBox()->setCurrentIndex(0);  // the one-step study: which batch sizes flip a near tie
    m_fromLoop->setText(
        tr("<b>From the Loop page</b>: greedy picked '%1' over '%2' by a logit gap of <b>%3</b>. On a "
           "server the logits come from kernels whose summation order depends on the batch size; when "
           "the error that order makes exceeds the gap, the argmax flips and T = 0 writes '%2' instead. "
           "Run the one-step study to see which batch sizes flip near ties, and the gap against the "
           "reduction error per precision.")
            .arg(name(first), name(second))
            .arg(gap, 0, 'g', 3));
    m_fromLoop->show();
    return true;
}

}  // namespace logitlab::ui
