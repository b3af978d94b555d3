// ui::ResultTableModel over app::ResultTable: it passes QAbstractItemModelTester, shows what
// the CSV holds (rounded on screen, every digit in EditRole, tooltip and CSV), sorts numbers as
// numbers with empty cells last, and the CSV from the table equals the CSV from its cells.
#include "ui/models/result_table_model.h"

#include "app/kinds/result_table.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

#include <cmath>

using namespace logitlab;

namespace {

struct Row {
    QString name;
    qint64 count;
    double p;
};

app::ResultTable sampleTable()
{
    using Kind = app::ResultColumn::Kind;
    auto rows =
        std::make_shared<const std::vector<Row>>(std::vector<Row>{{QStringLiteral("users"), 493, 0.49312345678},
                                                                  {QStringLiteral("a, \"quoted\" name"), 393, NAN},
                                                                  {QStringLiteral("items"), 114, 1e-300}});
    app::ResultTable t;
    t.title = QStringLiteral("sample");
    t.rows = rows->size();
    t.columns = {app::columnOf(
                     rows, QStringLiteral("token"), QStringLiteral("Token"), Kind::Text,
                     [](const Row& r) { return r.name; }, QStringLiteral("The token.")),
                 app::columnOf(rows, QStringLiteral("count"), QStringLiteral("Count"), Kind::Integer,
                               [](const Row& r) { return r.count; }),
                 app::columnOf(
                     rows, QStringLiteral("p"), QStringLiteral("p"), Kind::Real, [](const Row& r) { return r.p; },
                     QString(), 3)};
    return t;
}

}  // namespace

class TestResultTableModel : public QObject {
    Q_OBJECT

private slots:
    void passesTester()
    {
        ui::ResultTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        model.setTable(sampleTable());
        QCOMPARE(resets.size(), 1);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.columnCount(), 3);
        model.setTable({});
        QCOMPARE(model.rowCount(), 0);
    }

    void cells_data()
    {
        QTest::addColumn<int>("row");
        QTest::addColumn<QString>("column");
        QTest::addColumn<QString>("display");
        QTest::addColumn<QString>("csv");
        QTest::newRow("text") << 1 << QStringLiteral("token") << QStringLiteral("a, \"quoted\" name")
                              << QStringLiteral("a, \"quoted\" name");
        QTest::newRow("integer") << 0 << QStringLiteral("count") << QStringLiteral("493") << QStringLiteral("493");
        QTest::newRow("real rounded on screen")
            << 0 << QStringLiteral("p") << QStringLiteral("0.493") << QStringLiteral("0.49312345678");
        QTest::newRow("no value") << 1 << QStringLiteral("p") << QString() << QString();
        QTest::newRow("tiny") << 2 << QStringLiteral("p") << QStringLiteral("0.000") << QStringLiteral("1e-300");
    }
    void cells()
    {
        QFETCH(int, row);
        QFETCH(QString, column);
        QFETCH(QString, display);
        QFETCH(QString, csv);
        ui::ResultTableModel model;
        model.setTable(sampleTable());
        const int c = model.column(column);
        QVERIFY(c >= 0);
        const QModelIndex index = model.index(row, c);
        QCOMPARE(model.data(index).toString(), display);
        QCOMPARE(app::csvCell(model.table().columns[static_cast<std::size_t>(c)], static_cast<std::size_t>(row)), csv);
        QCOMPARE(model.data(index, Qt::ToolTipRole).toString(), csv);
    }

    void headersAreTitlesWithCsvNamesInTooltips()
    {
        ui::ResultTableModel model;
        model.setTable(sampleTable());
        QCOMPARE(model.headerData(0, Qt::Horizontal).toString(), QStringLiteral("Token"));
        QVERIFY(model.headerData(0, Qt::Horizontal, Qt::ToolTipRole).toString().contains(QStringLiteral("CSV: token")));
        QCOMPARE(model.column(QStringLiteral("nope")), -1);
    }

    void sortsNumbersWithEmptyLast()
    {
        ui::ResultTableModel model;
        model.setTable(sampleTable());
        const int p = model.column(QStringLiteral("p"));
        const double present = model.data(model.index(2, p), ui::ResultTableModel::SortRole).toDouble();
        const double empty = model.data(model.index(1, p), ui::ResultTableModel::SortRole).toDouble();
        QVERIFY(empty < present);
        QCOMPARE(model.data(model.index(0, model.column(QStringLiteral("count"))), ui::ResultTableModel::SortRole)
                     .toDouble(),
                 493.0);
    }

    void csvQuotesAndKeepsEveryDigit()
    {
        app::Provenance provenance(QStringLiteral("test"));
        const QString csv = app::resultTableCsv(provenance, sampleTable());
        const QStringList lines = csv.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        const qsizetype header = lines.indexOf(QStringLiteral("token,count,p"));
        QVERIFY(header > 0);
        QCOMPARE(lines.mid(header + 1),
                 (QStringList{QStringLiteral("users,493,0.49312345678"),
                              QStringLiteral("\"a, \"\"quoted\"\" name\",393,"), QStringLiteral("items,114,1e-300")}));
    }
};

QTEST_MAIN(TestResultTableModel)
#include "tst_result_table_model.moc"
