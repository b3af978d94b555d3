#include "ui/pages/page.h"

#include "ui/forms/numeric_entry.h"

#include <QFile>

namespace logitlab::ui {

Page::Page(QWidget* parent) : QWidget(parent) { NumericEntry::install(); }

QString Page::lessonHtml() const
{
    QFile file(QStringLiteral(":/lessons/%1.html").arg(id()));
    return !id().isEmpty() && file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

QString Page::workedExample() const
{
    const QString path = QStringLiteral(":/examples/%1-lesson.json").arg(id());
    return !id().isEmpty() && QFile::exists(path) ? path : QString();
}

}  // namespace logitlab::ui
