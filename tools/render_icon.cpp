// render_icon: a build tool that renders LogitLab's SVG icon to the square PNG sizes the hicolor
// icon theme uses, so the PNGs never drift from the SVG (packaging/CMakeLists.txt runs it).
// Usage: render_icon ICON.svg OUT_DIR SIZE...   writes OUT_DIR/SIZExSIZE.png for each size.
#include <QDir>
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>
#include <QTextStream>

int main(int argc, char* argv[])
{
    // No display is needed to paint into an image.
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    QTextStream err(stderr);
    const QStringList args = QGuiApplication::arguments();
    if (args.size() < 4) {
        err << "usage: render_icon ICON.svg OUT_DIR SIZE...\n";
        return 2;
    }
    QSvgRenderer renderer(args[1]);
    if (!renderer.isValid()) {
        err << "render_icon: error: " << args[1] << ": not a valid SVG\n";
        return 1;
    }
    const QDir out(args[2]);
    if (!QDir().mkpath(out.path())) {
        err << "render_icon: error: " << args[2] << ": cannot create the folder\n";
        return 1;
    }
    for (int i = 3; i < args.size(); ++i) {
        bool ok = false;
        const int size = args[i].toInt(&ok);
        if (!ok || size < 1 || size > 1024) {
            err << "render_icon: error: size '" << args[i] << "' is not between 1 and 1024\n";
            return 2;
        }
        QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::transparent);
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        renderer.render(&painter);
        painter.end();
        const QString path = out.filePath(QStringLiteral("%1x%1.png").arg(size));
        if (!image.save(path, "PNG")) {
            err << "render_icon: error: " << path << ": could not write\n";
            return 1;
        }
    }
    return 0;
}
