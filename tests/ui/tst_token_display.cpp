// Long token names in the GUI (issue 11, item 4): a name is cut for display in the table, the
// chart's axis and the readouts, so the layout costs the same as for a short name; the model
// keeps the whole name for editing and export, and a name over the read limit is refused with
// a message naming its length and the limit.
#include "app/io/model_csv.h"
#include "charts/probability_chart.h"
#include "charts/token_display.h"
#include "ui/models/logits_table_model.h"
#include "ui/pages/explorer_page.h"

#include <QFile>
#include <QLabel>
#include <QTemporaryDir>
#include <QTest>

using namespace logitlab;
using namespace logitlab::ui;

namespace {

constexpr QChar kEllipsis(u'\u2026');

// An Explorer state file with the lesson's five logits and `first` as the first token's name.
QByteArray stateWithFirstToken(const QString& first)
{
    return QStringLiteral(
               R"({"format":"logitlab-explorer","version":2,"tokens":["%1","data","items","result","banana"],)"
               R"("logits":[3,2,1.5,1,-2],"sampler":{"semantics":"lesson","temperature":1,"topP":0.9}})")
        .arg(first)
        .toUtf8();
}

bool loaded(const ExplorerPage& page)
{
    return QTest::qWaitFor([&page] { return !page.loading(); }, 30'000);
}

}  // namespace

class TestTokenDisplay : public QObject {
    Q_OBJECT

private slots:
    void shownName_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("shown");
        const QString forty(kShownTokenChars, QLatin1Char('x'));
        QTest::newRow("short") << QStringLiteral("users") << QStringLiteral("users");
        QTest::newRow("exactly the width") << forty << forty;
        QTest::newRow("one over") << forty + QLatin1Char('y')
                                  << forty.left(20) + kEllipsis + forty.left(18) + QLatin1Char('y');
        QTest::newRow("emoji at the head's cut")
            << QString(19, QLatin1Char('x')) + QStringLiteral("\U0001F600") + QString(21, QLatin1Char('y'))
            << QString(19, QLatin1Char('x')) + kEllipsis + QString(19, QLatin1Char('y'));
        QTest::newRow("emoji at the tail's cut")
            << QString(22, QLatin1Char('x')) + QStringLiteral("\U0001F600") + QString(18, QLatin1Char('y'))
            << QString(20, QLatin1Char('x')) + kEllipsis + QString(18, QLatin1Char('y'));
        QTest::newRow("a space") << QStringLiteral(" ") << QStringLiteral("\u2423");
        QTest::newRow("newline") << QStringLiteral("\n") << QStringLiteral("\\n");
        QTest::newRow("two tabs") << QStringLiteral("\t\t") << QStringLiteral("\\t\\t");
        QTest::newRow("space and CRLF") << QStringLiteral(" \r\n") << QStringLiteral("\u2423\\r\\n");
        QTest::newRow("leading space kept") << QStringLiteral(" the") << QStringLiteral(" the");
        QTest::newRow("end stays readable")
            << QStringLiteral("Ġ") + QString(50, QLatin1Char('_')) + QStringLiteral("Handler")
            << QStringLiteral("Ġ") + QString(19, QLatin1Char('_')) + kEllipsis + QString(12, QLatin1Char('_')) +
                   QStringLiteral("Handler");
    }
    void shownName()
    {
        QFETCH(QString, name);
        QFETCH(QString, shown);
        QCOMPARE(shownTokenName(name), shown);
        QCOMPARE(shownTokenName(name.toStdString()), shown);  // the same from UTF-8
    }

    // Chart labels: HTML-looking names escaped; a name ending as Qt marks a cut label quoted.
    void chartLabel_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("label");
        QTest::newRow("plain") << QStringLiteral("users") << QStringLiteral("users");
        QTest::newRow("tag") << QStringLiteral("<s>") << QStringLiteral("&lt;s&gt;");
        QTest::newRow("three dots") << QStringLiteral("...") << QStringLiteral("\u201C...\u201D");
        QTest::newRow("word and dots") << QStringLiteral("etc...") << QStringLiteral("\u201Cetc...\u201D");
        QTest::newRow("ellipsis") << QStringLiteral("\u2026") << QStringLiteral("\u201C\u2026\u201D");
        QTest::newRow("vertical ellipsis") << QStringLiteral("\u22EE") << QStringLiteral("\u201C\u22EE\u201D");
        QTest::newRow("cut in the middle")
            << shownTokenName(QString(50, QLatin1Char('x'))) << shownTokenName(QString(50, QLatin1Char('x')));
        QTest::newRow("two dots") << QStringLiteral("..") << QStringLiteral("..");
    }
    void chartLabel()
    {
        QFETCH(QString, name);
        QFETCH(QString, label);
        QCOMPARE(ui::chartLabel(name), label);
    }

    // A million characters: only a prefix is decoded, the result is the same width.
    void hugeNameFromUtf8()
    {
        const std::string huge(1'000'000, 'a');
        const QString shown = shownTokenName(huge);
        QCOMPARE(shown.size(), kShownTokenChars);
        QCOMPARE(shown, QString(20, QLatin1Char('a')) + kEllipsis + QString(19, QLatin1Char('a')));
    }

    // The longest name the reader accepts (1,024 characters) in the Explorer: the table, the
    // chart's axis and the readout show it cut; the model hands the whole name to editing, and
    // the tooltip shows it.
    void longNameIsCutInTheExplorer()
    {
        QTemporaryDir dir;
        const QString longName = QStringLiteral("tok") + QString(1021, QLatin1Char('n'));
        QCOMPARE(longName.size(), 1024);
        const QString path = dir.filePath(QStringLiteral("long.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(stateWithFirstToken(longName));
        file.close();

        ExplorerPage page;
        page.resize(1200, 800);
        page.show();
        QCOMPARE(page.openExperiment(path), QString());
        QVERIFY(loaded(page));
        QVERIFY2(page.errorLabel()->isHidden(), qPrintable(page.errorLabel()->text()));
        LogitsTableModel* model = page.model();
        const QModelIndex cell = model->index(0, LogitsTableModel::TokenColumn);
        const QString shown = model->data(cell, Qt::DisplayRole).toString();
        QCOMPARE(shown.size(), kShownTokenChars);
        QVERIFY(shown.startsWith(QStringLiteral("tok")));
        QVERIFY(shown.contains(kEllipsis) && shown.endsWith(QLatin1Char('n')));
        QCOMPARE(model->data(cell, Qt::EditRole).toString(), longName);
        QCOMPARE(model->data(cell, Qt::ToolTipRole).toString(), longName);
        QCOMPARE(model->tokenName(0), longName);

        const QStringList bars = page.probabilityChart()->categories();
        QVERIFY(!bars.isEmpty());
        for (const QString& bar : bars)
            QVERIFY2(bar.size() <= kShownTokenChars, qPrintable(bar));
        QVERIFY(bars.contains(shown));
        const int bar = static_cast<int>(bars.indexOf(shown));
        QVERIFY(page.probabilityChart()->barToolTip(bar).startsWith(longName + QStringLiteral(" (id 0)")));

        QVERIFY(!page.readoutText().contains(longName));
        QVERIFY(page.readoutText().size() < 2000);

        // Copy table and Export table carry the whole name.
        QVERIFY(app::modelToTsv(*model).contains(longName + QLatin1Char('\t')));
        QVERIFY(app::modelToCsv(*model, app::Provenance(QStringLiteral("t"))).contains(longName));
    }

    // Over the limit: refused when read, with the length and the limit; the table stays.
    void overlongNameIsRefused()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("huge.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(stateWithFirstToken(QString(100'000, QLatin1Char('n'))));
        file.close();
        ExplorerPage page;
        const QString before = page.model()->tokenName(0);
        QCOMPARE(page.openExperiment(path), QString());
        QVERIFY(loaded(page));
        QCOMPARE(page.errorLabel()->text(),
                 QStringLiteral("huge.json: tokens[0]: is 100,000 characters long; token names are limited to 1,024"));
        QCOMPARE(page.model()->tokenName(0), before);
    }

    // Renaming a token in the table is held to the same limit.
    void renameIsHeldToTheLimit()
    {
        ExplorerPage page;
        LogitsTableModel* model = page.model();
        const QModelIndex cell = model->index(0, LogitsTableModel::TokenColumn);
        QVERIFY(!model->setData(cell, QString(1025, QLatin1Char('r')), Qt::EditRole));
        QVERIFY(page.errorLabel()->text().contains(QStringLiteral("is 1,025 characters long")));
        QVERIFY(model->setData(cell, QString(1024, QLatin1Char('r')), Qt::EditRole));
        QTRY_COMPARE(page.model()->tokenName(0).size(), 1024);
    }
};

QTEST_MAIN(TestTokenDisplay)
#include "tst_token_display.moc"
