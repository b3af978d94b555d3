#include "charts/chart_scripts.h"

#include "app/io/csv_writer.h"

#include <QStringList>

namespace logitlab::ui {

namespace {

// A Python string literal (the file is UTF-8).
QString py(const QString& text)
{
    QString out = QStringLiteral("\"");
    for (const QChar c : text) {
        if (c == u'\\' || c == u'"')
            out += QLatin1Char('\\') + c;
        else if (c == u'\n')
            out += QStringLiteral("\\n");
        else if (c == u'\r')
            out += QStringLiteral("\\r");
        else if (c == u'\t')
            out += QStringLiteral("\\t");
        else
            out += c;
    }
    return out + QLatin1Char('"');
}

QString pyNumber(std::optional<double> value)
{
    return value ? app::CsvWriter::number(*value) : QStringLiteral("None");
}

QString pyBool(bool value) { return value ? QStringLiteral("True") : QStringLiteral("False"); }

QString commentLines(const app::Provenance& provenance, const QString& marker)
{
    QString out;
    for (const QString& line : provenance.csvCommentLines())
        out += marker + line.mid(1) + QLatin1Char('\n');
    return out;
}

}  // namespace

QString latexEscaped(const QString& text)
{
    QString out;
    for (const QChar c : text) {
        switch (c.unicode()) {
        case u'\\':
            out += QStringLiteral("\\textbackslash{}");
            break;
        case u'~':
            out += QStringLiteral("\\textasciitilde{}");
            break;
        case u'^':
            out += QStringLiteral("\\textasciicircum{}");
            break;
        case u'#':
        case u'$':
        case u'%':
        case u'&':
        case u'_':
        case u'{':
        case u'}':
            out += QLatin1Char('\\') + c;
            break;
        case u'\n':
            out += QLatin1Char(' ');
            break;
        default:
            out += c;
        }
    }
    return out;
}

QString matplotlibScript(const ChartData& data, const QString& csvName, const ChartExportOptions& options,
                         const app::Provenance& provenance)
{
    QString s;
    s += QStringLiteral("#!/usr/bin/env python3\n# -*- coding: utf-8 -*-\n");
    s += QStringLiteral("# Re-plots this chart from %1 with matplotlib: edit the style below and run\n"
                        "#   python3 THIS.py [OUT.pdf]   (--dump prints each series' y values as JSON)\n")
             .arg(csvName);
    s += commentLines(provenance, QStringLiteral("#"));
    s += QStringLiteral("import csv, json, os, sys\nimport matplotlib\nmatplotlib.use(\"Agg\")\n"
                        "import matplotlib.pyplot as plt\n\n");
    s += QStringLiteral("HERE = os.path.dirname(os.path.abspath(__file__))\nDATA = os.path.join(HERE, %1)\n")
             .arg(py(csvName));
    s += QStringLiteral("TITLE = %1\nSHOW_TITLE = %2\nSIZE_INCHES = (%3, %4)\n")
             .arg(py(data.title), pyBool(options.title), app::CsvWriter::number(options.widthInches()),
                  app::CsvWriter::number(options.heightInches()));
    s += QStringLiteral("X = dict(title=%1, log=%2, min=%3, max=%4)\n")
             .arg(py(data.xAxis.title), pyBool(data.xAxis.log), pyNumber(data.xAxis.min), pyNumber(data.xAxis.max));
    s += QStringLiteral("Y = dict(title=%1, log=%2, min=%3, max=%4)\n")
             .arg(py(data.yAxis.title), pyBool(data.yAxis.log), pyNumber(data.yAxis.min), pyNumber(data.yAxis.max));
    QStringList categories;
    for (const QString& c : data.categories)
        categories << py(c);
    s += QStringLiteral("CATEGORIES = [%1]\n").arg(categories.join(QStringLiteral(", ")));
    s += QStringLiteral("# Per series (by its index in the CSV's si column): name, kind, colour, dashes.\nSTYLE = [\n");
    for (const ChartSeriesData& series : data.series)
        s += QStringLiteral("    dict(name=%1, kind=%2, color=%3, dashed=%4),\n")
                 .arg(py(series.name), py(seriesKindName(series.kind)), py(series.color), pyBool(series.dashed));
    s += QStringLiteral("]\n\n");
    s += QStringLiteral(R"PY(
def read_series():
    with open(DATA, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    series = [dict(x=[], y=[], y2=[], kind=[]) for _ in STYLE]
    for row in rows:
        s = series[int(row["si"])]
        s["x"].append(float(row["xi"]) if row["xi"] else float(row["x"]))
        s["y"].append(float(row["y"]))
        s["y2"].append(float(row["y2"]) if row["y2"] else None)
        s["kind"].append(row["kind"])
    return series


def boxes(s):
    """A box series' rows (box-min, box-q1, box-median, box-q3, box-max per category) as bxp's stats."""
    names = dict(min="whislo", q1="q1", median="med", q3="q3", max="whishi")
    stats = {}
    for x, y, kind in zip(s["x"], s["y"], s["kind"]):
        stats.setdefault(x, {})[names[kind[len("box-"):]]] = y
    return sorted(stats), [stats[x] for x in sorted(stats)]


def main():
    series = read_series()
    fig, ax = plt.subplots(figsize=SIZE_INCHES)
    bars = [i for i, st in enumerate(STYLE) if st["kind"] in ("bar", "barh")]
    width = 0.8 / max(1, len(bars))
    for i, (st, s) in enumerate(zip(STYLE, series)):
        label = st["name"] or None
        if st["kind"] == "line":
            ax.plot(s["x"], s["y"], color=st["color"], linestyle="--" if st["dashed"] else "-", label=label)
        elif st["kind"] == "scatter":
            ax.scatter(s["x"], s["y"], color=st["color"], s=12, label=label, zorder=3)
        elif st["kind"] == "band":
            ax.fill_between(s["x"], s["y2"], s["y"], color=st["color"], alpha=0.3, linewidth=0, label=label)
        elif st["kind"] == "box":
            positions, stats = boxes(s)
            ax.bxp(stats, positions=positions, showfliers=False, patch_artist=True, widths=0.6,
                   boxprops=dict(facecolor=st["color"]), medianprops=dict(color="black"))
            ax.bar([], [], color=st["color"], label=label)  # the legend's entry
        else:
            offset = (bars.index(i) - (len(bars) - 1) / 2) * width
            where = [x + offset for x in s["x"]]
            if st["kind"] == "bar":
                ax.bar(where, s["y"], width=width, color=st["color"], label=label)
            else:
                ax.barh(where, s["y"], height=width, color=st["color"], label=label)
    if CATEGORIES:
        ticks = range(len(CATEGORIES))
        if any(st["kind"] == "barh" for st in STYLE):
            ax.set_yticks(ticks, CATEGORIES)
        else:
            ax.set_xticks(ticks, CATEGORIES, rotation=90 if max(len(c) for c in CATEGORIES) > 3 else 0)
    for axis, spec, set_scale, set_lim, set_label in ((ax.xaxis, X, ax.set_xscale, ax.set_xlim, ax.set_xlabel),
                                                     (ax.yaxis, Y, ax.set_yscale, ax.set_ylim, ax.set_ylabel)):
        set_label(spec["title"])
        if spec["log"]:
            set_scale("log")
        if spec["min"] is not None and spec["max"] is not None:
            set_lim(spec["min"], spec["max"])
    if SHOW_TITLE:
        ax.set_title(TITLE)
    if sum(1 for st in STYLE if st["name"]) > 1:
        ax.legend(fontsize="small", frameon=False)
    fig.tight_layout()
    args = [a for a in sys.argv[1:] if a != "--dump"]
    out = args[0] if args else os.path.splitext(os.path.abspath(__file__))[0] + ".pdf"
    fig.savefig(out)
    if "--dump" in sys.argv:
        print(json.dumps({str(i): s["y"] for i, s in enumerate(series)}))


if __name__ == "__main__":
    main()
)PY");
    return s;
}

QString pgfplotsFile(const ChartData& data, const QString& csvName, const ChartExportOptions& options,
                     const app::Provenance& provenance)
{
    QString s;
    s += QStringLiteral("%% Re-plots this chart from %1 with pgfplots: pdflatex THIS.tex\n").arg(csvName);
    s += commentLines(provenance, QStringLiteral("%"));
    s += QStringLiteral("\\documentclass{standalone}\n\\usepackage[utf8]{inputenc}\n\\usepackage{pgfplots}\n"
                        "\\usepgfplotslibrary{statistics}\n\\pgfplotsset{compat=1.16}\n"
                        "%% One series of the long CSV: the rows whose si column is #1.\n"
                        "\\pgfplotsset{only series/.style={x filter/.expression={\\thisrow{si}==#1 ? x : nan}}}\n");
    for (std::size_t i = 0; i < data.series.size(); ++i)
        s += QStringLiteral("\\definecolor{series%1}{HTML}{%2}\n").arg(i).arg(data.series[i].color.mid(1).toUpper());
    s += QStringLiteral("\\begin{document}\n\\begin{tikzpicture}\n\\begin{axis}[\n");
    s += QStringLiteral("  width=%1in, height=%2in,\n")
             .arg(app::CsvWriter::number(options.widthInches()), app::CsvWriter::number(options.heightInches()));
    if (options.title && !data.title.isEmpty())
        s += QStringLiteral("  title={%1},\n").arg(latexEscaped(data.title));
    s += QStringLiteral("  xlabel={%1}, ylabel={%2},\n")
             .arg(latexEscaped(data.xAxis.title), latexEscaped(data.yAxis.title));
    if (data.xAxis.log)
        s += QStringLiteral("  xmode=log,\n");
    if (data.yAxis.log)
        s += QStringLiteral("  ymode=log,\n");
    const auto limits = [&s](const ChartAxisData& axis, const char* name) {
        if (axis.min && axis.max)
            s += QStringLiteral("  %1min=%2, %1max=%3,\n")
                     .arg(QLatin1String(name), app::CsvWriter::number(*axis.min), app::CsvWriter::number(*axis.max));
    };
    limits(data.xAxis, "x");
    limits(data.yAxis, "y");
    bool horizontal = false;
    int barSets = 0;
    for (const ChartSeriesData& series : data.series) {
        horizontal = horizontal || series.kind == ChartSeriesData::Kind::HorizontalBar;
        barSets += series.kind == ChartSeriesData::Kind::Bar || series.kind == ChartSeriesData::Kind::HorizontalBar;
    }
    if (!data.categories.isEmpty()) {
        QStringList labels;
        for (const QString& c : data.categories)
            labels << QStringLiteral("{%1}").arg(latexEscaped(c));
        const QString axis = horizontal ? QStringLiteral("y") : QStringLiteral("x");
        s += QStringLiteral("  %1tick={0,...,%2}, %1ticklabels={%3},%4\n")
                 .arg(axis)
                 .arg(data.categories.size() - 1)
                 .arg(labels.join(QLatin1Char(',')))
                 .arg(horizontal ? QString() : QStringLiteral(" x tick label style={rotate=90},"));
        if (barSets > 0)
            s += horizontal ? QStringLiteral("  xbar, bar width=%1,\n").arg(6.0 / std::max(1, barSets))
                            : QStringLiteral("  ybar, bar width=%1pt,\n").arg(6.0 / std::max(1, barSets));
    }
    s += QStringLiteral("  legend style={font=\\footnotesize, draw=none}, legend cell align=left,\n]\n");
    for (std::size_t i = 0; i < data.series.size(); ++i) {
        const ChartSeriesData& series = data.series[i];
        if (series.kind == ChartSeriesData::Kind::Box) {
            // One prepared box per category (pgfplots' statistics library reads no table for
            // these): its five numbers from the CSV's rows, the legend entry on the first.
            for (std::size_t p = 0; p + 4 < series.y.size(); p += 5) {
                s += QStringLiteral("\\addplot[boxplot prepared={lower whisker=%1, lower quartile=%2, median=%3, "
                                    "upper quartile=%4, upper whisker=%5, draw position=%6}, fill=series%7, "
                                    "draw=black%8] coordinates {};\n")
                         .arg(app::CsvWriter::number(series.y[p]), app::CsvWriter::number(series.y[p + 1]),
                              app::CsvWriter::number(series.y[p + 2]), app::CsvWriter::number(series.y[p + 3]),
                              app::CsvWriter::number(series.y[p + 4]), app::CsvWriter::number(series.x[p]))
                         .arg(i)
                         .arg(p == 0 ? QString() : QStringLiteral(", forget plot"));
                if (p == 0)
                    s += QStringLiteral("\\addlegendentry{%1}\n").arg(latexEscaped(series.name));
            }
            continue;
        }
        const QString table =
            QStringLiteral("table[col sep=comma, comment chars={\\#}, x=%1, y=y, only series=%2]{%3}")
                .arg(series.kind == ChartSeriesData::Kind::Bar || series.kind == ChartSeriesData::Kind::HorizontalBar
                         ? QStringLiteral("xi")
                         : QStringLiteral("x"))
                .arg(i)
                .arg(csvName);
        QString style;
        switch (series.kind) {
        case ChartSeriesData::Kind::Scatter:
            style = QStringLiteral("only marks, mark=*, mark size=1pt, color=series%1").arg(i);
            break;
        case ChartSeriesData::Kind::Band:
            style = QStringLiteral("draw=none, fill=series%1, fill opacity=0.3, mark=none").arg(i);
            break;
        case ChartSeriesData::Kind::Bar:
        case ChartSeriesData::Kind::HorizontalBar:
            style = QStringLiteral("fill=series%1, draw=none").arg(i);
            break;
        case ChartSeriesData::Kind::Box:  // drawn above
        case ChartSeriesData::Kind::Line:
            style = QStringLiteral("no markers, thick, color=series%1%2")
                        .arg(i)
                        .arg(series.dashed ? QStringLiteral(", dashed") : QString());
            break;
        }
        s += QStringLiteral("\\addplot[%1] %2;\n").arg(style, table);
        if (!series.name.isEmpty())
            s += QStringLiteral("\\addlegendentry{%1}\n").arg(latexEscaped(series.name));
        else
            s += QStringLiteral("\\addlegendentry{}\n");
    }
    s += QStringLiteral("\\end{axis}\n\\end{tikzpicture}\n\\end{document}\n");
    return s;
}

}  // namespace logitlab::ui
