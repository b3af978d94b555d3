#include "ui/pages/junk_risk_page.h"

#include "app/kinds/junk_risk_job.h"
#include "app/kinds/junk_risk_spec.h"
#include "charts/junk_risk_chart.h"
#include "ui/forms/junk_risk_form.h"
#include "ui/pages/results_pane.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>

namespace logitlab::ui {

namespace {

// Numbers with digit grouping whatever the locale's default (the C locale omits it): 20,000
// replies and N = 2,000 must read at a glance from the back of a room.
QLocale groupingLocale()
{
    QLocale locale;
    locale.setNumberOptions(locale.numberOptions() & ~QLocale::OmitGroupSeparator);
    return locale;
}

}  // namespace

JunkRiskPage::JunkRiskPage(QWidget* parent)
    : KindPage(app::junkRiskKind(), new JunkRiskForm, parent), m_form(static_cast<JunkRiskForm*>(form())),
      m_highlight(new QSpinBox), m_lessonText(new QLabel)
{
    m_highlight->setRange(0, static_cast<int>(engine::JunkRiskExperiment::kMaxLength));
    m_highlight->setSpecialValueText(tr("none"));
    m_highlight->setValue(300);
    m_highlight->setGroupSeparatorShown(true);
    m_highlight->setToolTip(tr("The reply length N whose P(at least one junk token) and P(no junk token) are "
                               "highlighted on the chart and below it (the lesson asks about N = 300)."));
    m_lessonText->setObjectName(QStringLiteral("lessonTerms"));
    m_lessonText->setWordWrap(true);
    m_lessonText->setTextFormat(Qt::RichText);
    m_lessonText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_lessonText->setToolTip(tr("Analytic: each token is junk with probability q, independently, so "
                                "P(no junk token) = (1 - q)^N and P(at least one) = 1 - (1 - q)^N."));
    auto* terms = new QWidget;
    auto* termsLayout = new QVBoxLayout(terms);
    termsLayout->setContentsMargins(0, 0, 0, 0);
    auto* nRow = new QHBoxLayout;
    nRow->addWidget(new QLabel(tr("Highlight N")));
    nRow->addWidget(m_highlight);
    nRow->addStretch();
    termsLayout->addLayout(nRow);
    termsLayout->addWidget(m_lessonText);
    results()->addBelowSummary(terms);
    connect(m_highlight, &QSpinBox::valueChanged, this, &JunkRiskPage::showLessonTerms);
    connect(m_form->logLengthBox(), &QCheckBox::toggled, this, &JunkRiskPage::showLessonTerms);
    connect(results(), &ResultsPane::resultShown, this, &JunkRiskPage::showLessonTerms);
    showLessonTerms();
}

const app::JunkRiskRun* JunkRiskPage::shownRun() const { return results()->details<app::JunkRiskRun>(); }

bool JunkRiskPage::acceptDistribution(const HandOff& handOff)
{
    const engine::Distribution& distribution = handOff.distribution;
    m_form->useLogits(distribution);
    return true;
}

void JunkRiskPage::showLessonTerms()
{
    const qint64 n = m_highlight->value();
    m_highlights.clear();
    const app::JunkRiskRun* run = shownRun();
    const QLocale locale = groupingLocale();
    if (!run) {
        m_lessonText->setText(tr("Run to see each setting's q and its risk at N = %1.").arg(locale.toString(n)));
        return;
    }
    if (run->spec.alongReply()) {
        // The reply's whole length, per setting: the last row of each (steps restart at 1).
        const auto& rows = run->outcome.replyRows;
        QStringList lines;
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const auto& row = rows[i];
            if (i + 1 < rows.size() && rows[i + 1].step != 1)
                continue;
            QString line = tr("<b>%1</b>: over the reply's %2 tokens, expected junk tokens %3; "
                              "P(at least one junk token) = <b>%4</b>")
                               .arg(QString::fromStdString(row.setting).toHtmlEscaped(), locale.toString(row.step),
                                    locale.toString(row.expectedCount, 'g', 4), locale.toString(row.analytic, 'f', 4));
            if (std::isfinite(row.monteCarlo))
                line += tr(" (Monte Carlo: %1)").arg(locale.toString(row.monteCarlo, 'f', 4));
            lines << line;
        }
        m_lessonText->setText(lines.join(QStringLiteral("<br>")));
        return;
    }
    // The chart the kind's builder drew, with the page's own mark at N and the axis as ticked.
    if (auto* chart = results()->builder<JunkRiskChart>())
        chart->setRows(run->outcome.rows, m_form->logLengthBox()->isChecked(), n);
    if (n == 0) {
        m_lessonText->clear();
        return;
    }
    m_highlights = engine::junkRiskHighlights(run->outcome.rows, n);
    const std::size_t junkCount = run->outcome.junkCount;
    QStringList names = run->outcome.junkNames;
    for (QString& name : names)
        name = name.toHtmlEscaped();
    QString junk = junkCount == 0   ? tr("No token is junk under this definition")
                   : junkCount == 1 ? tr("Junk token: %1").arg(names.join(QString()))
                                    : tr("Junk tokens (%1): %2")
                                          .arg(locale.toString(static_cast<qulonglong>(junkCount)),
                                               names.join(QStringLiteral(", ")));
    if (junkCount > static_cast<std::size_t>(names.size()))
        junk += tr(" and %1 more")
                    .arg(locale.toString(static_cast<qulonglong>(junkCount - static_cast<std::size_t>(names.size()))));
    QStringList lines{junk};
    const QString nText = locale.toString(n);
    for (const auto& h : m_highlights) {
        QString line = tr("<b>%1</b>: q = %2 per token (%3%); at N = %4: P(at least one junk token) = <b>%5</b>, "
                          "P(no junk token) = <b>%6</b>")
                           .arg(QString::fromStdString(h.setting).toHtmlEscaped(), locale.toString(h.q, 'g', 4),
                                locale.toString(100.0 * h.q, 'g', 3), nText, locale.toString(h.atLeastOne, 'f', 4),
                                locale.toString(h.none, 'f', 4));
        if (std::isfinite(h.monteCarlo))
            line += tr(" (Monte Carlo: %1 with junk)").arg(locale.toString(h.monteCarlo, 'f', 4));
        lines << line;
    }
    m_lessonText->setText(lines.join(QStringLiteral("<br>")));
}

}  // namespace logitlab::ui
