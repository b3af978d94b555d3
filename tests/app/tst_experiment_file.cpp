// The experiment-file format: every example round-trips, --set overrides land where they
// should, and every kind of bad file is refused with a message naming the file and the key.
#include "app/kinds/junk_risk_spec.h"

#include "support/example_files.h"
#include "support/test_support.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace logitlab::app;

namespace {

QJsonObject lessonJson()
{
    QFile file(logitlab::test::examplePath(QStringLiteral("junk-risk-lesson.json")));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot open %s", qPrintable(file.fileName()));
    return QJsonDocument::fromJson(file.readAll()).object();
}

}  // namespace

class TestExperimentFile : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void roundTrip_data()
    {
        QTest::addColumn<QString>("file");
        const QStringList examples =
            QDir(logitlab::test::examplePath(QString())).entryList({QStringLiteral("junk-risk-*.json")});
        QVERIFY(examples.size() >= 4);
        for (const QString& name : examples)
            QTest::newRow(qPrintable(name)) << logitlab::test::examplePath(name);
    }

    void roundTrip()
    {
        QFETCH(QString, file);
        const auto spec = readJunkRiskFile(file);
        QVERIFY2(spec.ok(), spec.ok() ? "" : spec.error().c_str());
        const QString copy = m_dir.filePath(QFileInfo(file).fileName());
        QCOMPARE(writeJunkRiskFile(copy, spec.value()), QString());
        const auto again = readJunkRiskFile(copy);
        QVERIFY2(again.ok(), again.ok() ? "" : again.error().c_str());
        QVERIFY(again.value() == spec.value());
        // Writing is canonical: a second write gives the same bytes.
        QCOMPARE(QJsonDocument(toJson(again.value())).toJson(), QJsonDocument(toJson(spec.value())).toJson());
        QVERIFY(toParameters(spec.value(), QFileInfo(file).absolutePath()).ok());
    }

    void lessonValues()
    {
        const auto spec = readJunkRiskFile(logitlab::test::examplePath(QStringLiteral("junk-risk-lesson.json")));
        QVERIFY(spec.ok());
        QCOMPARE(spec->name, QStringLiteral("junk-risk-lesson"));
        QCOMPARE(spec->settings.size(), 2);
        QCOMPARE(spec->settings[1].sampler.topP, std::optional<double>(0.9));
        QCOMPARE(spec->replies, qint64{100000});
        QVERIFY(spec->lengths.list.contains(300));
        QCOMPARE(spec->junk.ids, std::vector<std::int32_t>{4});
    }

    void defaults()
    {
        QJsonObject minimal{
            {QStringLiteral("logitlab"), 1},
            {QStringLiteral("experiment"), QStringLiteral("junk-risk")},
            {QStringLiteral("name"), QStringLiteral("m")},
            {QStringLiteral("distribution"), QJsonObject{{QStringLiteral("kind"), QStringLiteral("zipf")}}},
            {QStringLiteral("junk"),
             QJsonObject{{QStringLiteral("kind"), QStringLiteral("tail-mass")}, {QStringLiteral("mass"), 0.01}}},
            {QStringLiteral("settings"), QJsonArray{QJsonObject{}}},
            {QStringLiteral("lengths"), QJsonArray{300}}};
        const auto spec = parseJunkRisk(minimal, QStringLiteral("m.json"));
        QVERIFY2(spec.ok(), spec.ok() ? "" : spec.error().c_str());
        QCOMPARE(spec->distribution.vocabulary, qint64{262144});
        QCOMPARE(spec->settings[0].label, QStringLiteral("temperature=1"));
        QCOMPARE(spec->replies, qint64{10000});
        QCOMPARE(spec->seed, qint64{42});
        QCOMPARE(spec->rng, QStringLiteral("mt19937_64"));
    }

    void lengthRanges()
    {
        LengthSpec log;
        log.isRange = true;
        log.from = 1;
        log.to = 2000;
        log.logSpacing = true;
        log.points = 30;
        const auto values = log.expand();
        QCOMPARE(values.front(), std::int64_t{1});
        QCOMPARE(values.back(), std::int64_t{2000});
        QVERIFY(std::is_sorted(values.begin(), values.end()));
        QVERIFY(std::adjacent_find(values.begin(), values.end()) == values.end());
        LengthSpec linear;
        linear.isRange = true;
        linear.from = 10;
        linear.to = 35;
        linear.step = 10;
        QCOMPARE(linear.expand(), (std::vector<std::int64_t>{10, 20, 30}));
    }

    // Files written before the one spelling (top_k, top_p) still read, and say the same.
    void oldSpellingsStillRead()
    {
        QJsonObject root = lessonJson();
        QJsonArray settings = root.value(QStringLiteral("settings")).toArray();
        QJsonObject setting = settings[1].toObject();
        setting.insert(QStringLiteral("top_p"), setting.take(QStringLiteral("top-p")));
        setting.insert(QStringLiteral("top_k"), 3);
        settings[1] = setting;
        root.insert(QStringLiteral("settings"), settings);
        const auto spec = parseJunkRisk(root, QStringLiteral("old.json"));
        QVERIFY2(spec.ok(), spec.ok() ? "" : spec.error().c_str());
        QCOMPARE(spec->settings[1].sampler.topP, std::optional<double>(0.9));
        QCOMPARE(spec->settings[1].sampler.topK, std::optional<int>(3));
        // Written back in the one spelling.
        const QJsonObject written = settingToJson(spec->settings[1]);
        QVERIFY(written.contains(QStringLiteral("top-p")) && written.contains(QStringLiteral("top-k")));
        QVERIFY(!written.contains(QStringLiteral("top_p")));
    }

    void overrides()
    {
        auto root = applyOverride(lessonJson(), QStringLiteral("replies=500"));
        QVERIFY(root.ok());
        root = applyOverride(root.value(), QStringLiteral("settings.1.top-p=0.5"));
        QVERIFY(root.ok());
        root = applyOverride(root.value(), QStringLiteral("rng=mulberry32"));  // not JSON: taken as a string
        QVERIFY(root.ok());
        root = applyOverride(root.value(), QStringLiteral("lengths=[10,20]"));
        QVERIFY(root.ok());
        const auto spec = parseJunkRisk(root.value(), QStringLiteral("x.json"));
        QVERIFY2(spec.ok(), spec.ok() ? "" : spec.error().c_str());
        QCOMPARE(spec->replies, qint64{500});
        QCOMPARE(spec->settings[1].sampler.topP, std::optional<double>(0.5));
        QCOMPARE(spec->rng, QStringLiteral("mulberry32"));
        QCOMPARE(spec->lengths.list, (QList<qint64>{10, 20}));

        QVERIFY(!applyOverride(lessonJson(), QStringLiteral("settings.7.top-p=0.5")).ok());
        QVERIFY(!applyOverride(lessonJson(), QStringLiteral("=3")).ok());
        QVERIFY(!applyOverride(lessonJson(), QStringLiteral("replies")).ok());
        QVERIFY(!applyOverride(lessonJson(), QStringLiteral("replies.x=3")).ok());
    }

    void badFile_data()
    {
        QTest::addColumn<QString>("assignment");  // applied to the lesson file; "RAW:" = file text
        QTest::addColumn<QString>("expected");    // what the message must say after the file name
        QTest::newRow("unknown key") << "colour=\"blue\""
                                     << "colour: unknown key";
        QTest::newRow("unknown nested key") << "junk.threshold=0.1"
                                            << "junk.threshold: unknown key";
        QTest::newRow("unknown setting key") << "settings.0.min_p=0.1"
                                             << "settings.0.min_p: unknown key";
        QTest::newRow("unknown chart key") << "chart.colour=1"
                                           << "chart.colour: unknown key";
        QTest::newRow("wrong type replies") << "replies=\"many\""
                                            << "replies: must be a whole number, not a string";
        QTest::newRow("fractional replies") << "replies=1.5"
                                            << "replies: must be a whole number, got 1.5";
        QTest::newRow("wrong type temperature") << "settings.0.temperature=\"hot\""
                                                << "settings.0.temperature: must be a number";
        QTest::newRow("wrong type settings") << "settings={}"
                                             << "settings: must be an array";
        QTest::newRow("wrong type lengths") << "lengths=\"300\""
                                            << "lengths: must be an array of lengths or a range object";
        QTest::newRow("wrong type log_n") << "chart.log_n=1"
                                          << "chart.log_n: must be true or false";
        QTest::newRow("wrong type probability") << "distribution.probabilities.2=\"x\""
                                                << "distribution.probabilities.2: must be a number";
        QTest::newRow("out of range replies") << "replies=-1"
                                              << "replies: must be in 0..1000000000, got -1";
        QTest::newRow("out of range top-p") << "settings.1.top-p=0"
                                            << "settings.1.top-p: must be in (0, 1]";
        QTest::newRow("out of range top-k") << "settings.1.top-k=0"
                                            << "settings.1.top-k: must be in 1..";
        QTest::newRow("both spellings of top-p")
            << "settings.1.top_p=0.5"
            << "settings.1.top_p: is the old spelling of top-p: give only one of them";
        QTest::newRow("out of range temperature") << "settings.0.temperature=-1"
                                                  << "settings.0.temperature: must be in [0, 1000]";
        QTest::newRow("out of range length") << "lengths=[0,300]"
                                             << "lengths.0: must be in 1..1000000, got 0";
        QTest::newRow("lengths not ascending") << "lengths=[300,10]"
                                               << "lengths.1: lengths must be ascending";
        QTest::newRow("out of range range") << "lengths={\"from\":10,\"to\":5}"
                                            << "lengths.to: must be in 10..1000000, got 5";
        QTest::newRow("out of range probability") << "distribution.probabilities.0=1.5"
                                                  << "distribution.probabilities.0: must be in [0, 1]";
        QTest::newRow("out of range seed") << "seed=-3"
                                           << "seed: must be in 0..";
        QTest::newRow("out of range junk id") << "junk.ids=[-1]"
                                              << "junk.ids.0: must be in 0..";
        QTest::newRow("empty settings") << "settings=[]"
                                        << "settings: must hold 1..16 settings";
        QTest::newRow("unknown rng") << "rng=\"dice\""
                                     << "rng: must be one of mulberry32, mt19937, mt19937_64";
        QTest::newRow("unknown kind") << "distribution.kind=\"gauss\""
                                      << "distribution.kind: must be one of";
        QTest::newRow("tokens mismatch") << "distribution.tokens=[\"a\"]"
                                         << "distribution.tokens: has 1 names for 5 values";
        QTest::newRow("bad name") << "name=\"../evil\""
                                  << "name: must be 1-100 letters";
        QTest::newRow("missing junk") << "junk=null"
                                      << "junk: must be an object, not null";
        QTest::newRow("unknown version") << "logitlab=2"
                                         << "logitlab: unknown version 2 (this build reads version 1)";
        QTest::newRow("version as text") << "logitlab=\"1\""
                                         << "logitlab: unknown version \"1\"";
        QTest::newRow("other experiment") << "experiment=\"other\""
                                          << "experiment: must be one of junk-risk";
        QTest::newRow("malformed JSON") << "RAW:{\"logitlab\": 1,,"
                                        << "malformed JSON at offset";
        QTest::newRow("not an object") << "RAW:[1, 2]"
                                       << "the file must hold one JSON object";
    }

    void badFile()
    {
        QFETCH(QString, assignment);
        QFETCH(QString, expected);
        QByteArray bytes;
        if (assignment.startsWith(QLatin1String("RAW:"))) {
            bytes = assignment.mid(4).toUtf8();
        } else {
            const auto root = applyOverride(lessonJson(), assignment);
            QVERIFY(root.ok());
            bytes = QJsonDocument(root.value()).toJson();
        }
        const QString path = m_dir.filePath(QStringLiteral("bad.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(bytes);
        file.close();
        const auto spec = readJunkRiskFile(path);
        QVERIFY(!spec.ok());
        const QString message = QString::fromStdString(spec.error());
        QVERIFY2(message.startsWith(path + QStringLiteral(": ") + expected), qPrintable(message));
        QVERIFY(!message.contains(QLatin1Char('\n')));
    }

    // A junk id the file allows but the vocabulary does not have is caught when the run is set up.
    void idOutsideVocabulary()
    {
        const auto root = applyOverride(lessonJson(), QStringLiteral("junk.ids=[5]"));
        const auto spec = parseJunkRisk(root.value(), QStringLiteral("f.json"));
        QVERIFY(spec.ok());
        auto parameters = toParameters(spec.value(), QString());
        QVERIFY(parameters.ok());
        const auto prepared = logitlab::engine::JunkRiskExperiment::prepare(std::move(parameters.value()));
        QVERIFY(!prepared.ok());
        QVERIFY(prepared.error().find("junk.ids.0: token id 5 is outside the vocabulary") == 0);
    }
};

QTEST_GUILESS_MAIN(TestExperimentFile)
#include "tst_experiment_file.moc"
