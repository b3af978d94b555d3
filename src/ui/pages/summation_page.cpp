#include "ui/pages/summation_page.h"

#include "app/kinds/summation_spec.h"
#include "engine/experiments/summation_lesson.h"
#include "ui/forms/summation_form.h"
#include "ui/pages/results_pane.h"

#include <QLabel>
#include <QScrollArea>
#include <QTabWidget>

namespace logitlab::ui {

namespace {

// The lesson's examples as an HTML table: expression, value, bits, and why.
QString lessonExamplesHtml()
{
    QString rows;
    for (const engine::LessonSum& s : engine::lessonSums())
        rows +=
            QStringLiteral("<tr><td><code>%1</code></td><td>&nbsp;= <b>%2</b></td><td>&nbsp;<code>%3</code></td></tr>"
                           "<tr><td colspan=3 style='color:#555'>%4</td></tr>")
                .arg(QString::fromStdString(s.expression).toHtmlEscaped(), QString::fromStdString(s.shortest),
                     QString::fromStdString(s.bits), QString::fromStdString(s.explanation).toHtmlEscaped());
    return SummationPage::tr("<b>The lesson, in float64:</b> the same numbers added in another order give another "
                             "result.<table cellspacing=4>%1</table>")
        .arg(rows);
}

}  // namespace

SummationPage::SummationPage(QWidget* parent)
    : KindPage(app::summationKind(), new SummationForm, parent), m_form(static_cast<SummationForm*>(form())),
      m_lesson(new QLabel)
{
    m_lesson->setTextFormat(Qt::RichText);
    m_lesson->setWordWrap(true);
    m_lesson->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_lesson->setText(lessonExamplesHtml());
    QFont lessonFont = m_lesson->font();
    lessonFont.setPointSizeF(lessonFont.pointSizeF() * 1.25);
    m_lesson->setFont(lessonFont);
    m_lesson->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_lesson->setContentsMargins(12, 12, 12, 12);
    auto* lessonPane = new QScrollArea;
    lessonPane->setWidget(m_lesson);
    lessonPane->setWidgetResizable(true);
    lessonPane->setFrameShape(QFrame::NoFrame);
    // The lesson is one click away; File > Export chart exports the result's chart from it.
    results()->addPageTab(lessonPane, tr("Lesson"));
}

}  // namespace logitlab::ui
