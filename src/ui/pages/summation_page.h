// The summation-order page: why temperature 0 still varies, one link of the chain. The kind's
// form and results (KindPage), and one view of its own before the charts: the lesson's two
// examples with their bits, large enough to read from the back of a room.
#pragma once

#include "ui/pages/kind_page.h"

QT_BEGIN_NAMESPACE
class QLabel;
QT_END_NAMESPACE

namespace logitlab::ui {

class SummationForm;

class SummationPage : public KindPage {
    Q_OBJECT
public:
    explicit SummationPage(QWidget* parent = nullptr);

    SummationForm* summationForm() const { return m_form; }
    QLabel* lessonLabel() const { return m_lesson; }

private:
    SummationForm* m_form;
    QLabel* m_lesson;
};

}  // namespace logitlab::ui
