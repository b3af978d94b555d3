// The lesson's own JavaScript (tests/node/lesson_cases.js, its code as written in the lesson) run
// in node against softmax(), candidates() and sample() on 1,000 random cases: V from 1 to
// 200,000, T from 0.05 to 5 (and some T = 0), top-k, top-p, ties, float32 logits, seeded draws.
// Every probability, every survivor and every draw must carry the same bits. Both sides generate
// the cases with the same integer steps; node prints a hash of each case's numbers.
#include "engine/rng/mulberry32.h"
#include "engine/sampler/candidates.h"
#include "engine/sampler/sample.h"
#include "engine/sampler/softmax.h"
#include "support/test_support.h"

#include <QTest>

#include <algorithm>
#include <bit>

using namespace logitlab::engine;

namespace {

struct LessonCase {
    Eigen::ArrayXd logits;
    bool float32 = false;  // the logits are float32 values (passed to the float overloads)
    SamplerSettings settings;
    std::uint32_t drawSeed = 0;
};

// lesson_cases.js's makeCase(), step for step (each next() in the order JavaScript evaluates it).
LessonCase makeCase(int index, Mulberry32& rng)
{
    const auto next = [&rng]() { return rng.nextU32(); };
    const auto fraction = [](std::uint32_t w) { return w / 4294967296.0; };
    LessonCase c;
    const std::uint32_t a = next() % 18;
    const std::uint32_t octave = std::min(a, next() % 18);
    const std::uint32_t drawn = 1 + next() % std::min<std::uint32_t>(200000, 1u << (octave + 1));
    const std::uint32_t vocab = index == 0 ? 200000 : index == 1 ? 128256 : drawn;
    if (next() % 50 == 0) {
        c.settings.temperature = 0.0;
    } else {
        const volatile double scaled = fraction(next()) * 4.95;  // rounded alone, as in JavaScript
        c.settings.temperature = 0.05 + scaled;
    }
    if (next() % 3 == 0) {
        const std::uint32_t dividend = next();
        const std::uint32_t octaveK = next() % 12;
        c.settings.topK = static_cast<int>(1 + dividend % std::min<std::uint32_t>(vocab, 1u << octaveK));
    }
    if (next() % 3 == 0)
        c.settings.topP = (1 + next() % 1000) / 1000.0;
    const std::uint32_t kind = next() % 3;
    c.float32 = kind == 2;
    c.logits.resize(vocab);
    for (std::uint32_t i = 0; i < vocab; ++i) {
        const std::uint32_t w = next();
        if (kind == 0) {
            const volatile double scaled = fraction(w) * 20;
            c.logits[i] = scaled - 10;
        } else if (kind == 1) {
            c.logits[i] = static_cast<double>(w % 7) - 3;
        } else {
            const volatile double scaled = fraction(w) * 200;
            c.logits[i] = static_cast<float>(scaled - 100);
        }
    }
    c.drawSeed = next();
    return c;
}

std::uint32_t mixInt(std::uint32_t h, std::uint32_t i) { return (h ^ i) * 16777619u; }

// DataView's big-endian view: the high word of the double first.
std::uint32_t mixDouble(std::uint32_t h, double x)
{
    const std::uint64_t bits = std::bit_cast<std::uint64_t>(x);
    return mixInt(mixInt(h, static_cast<std::uint32_t>(bits >> 32)), static_cast<std::uint32_t>(bits));
}

// The line lesson_cases.js prints for the case.
QByteArray describe(const LessonCase& c)
{
    std::uint32_t softmaxHash = 2166136261u;
    CandidateList list;
    if (c.float32) {
        const Eigen::ArrayXf logits = c.logits.cast<float>();
        if (c.settings.temperature != 0.0)
            for (double p : softmax(logits, c.settings.temperature))
                softmaxHash = mixDouble(softmaxHash, p);
        list = candidates(logits, c.settings);
    } else {
        if (c.settings.temperature != 0.0)
            for (double p : softmax(c.logits, c.settings.temperature))
                softmaxHash = mixDouble(softmaxHash, p);
        list = candidates(c.logits, c.settings);
    }
    std::uint32_t survivorHash = 2166136261u;
    for (const Candidate& x : list)
        survivorHash = mixDouble(mixInt(survivorHash, static_cast<std::uint32_t>(x.id)), x.p);
    Mulberry32 rng(c.drawSeed);
    const std::int32_t draw = sample(list, rng);
    return QByteArray::number(static_cast<qlonglong>(c.logits.size())) + ' ' + QByteArray::number(softmaxHash) + ' ' +
           QByteArray::number(static_cast<qulonglong>(list.size())) + ' ' + QByteArray::number(survivorHash) + ' ' +
           QByteArray::number(draw);
}

}  // namespace

class TestLessonJavaScript : public QObject {
    Q_OBJECT
private slots:
    void everyNumberIsTheLessonsOwn()
    {
        if (logitlab::test::nodeExecutable().isEmpty())
            QSKIP("node is not installed (scripts/setup.sh installs Debian's nodejs): "
                  "cannot run the lesson's JavaScript");
        constexpr int kCases = 1000;
        constexpr std::uint32_t kSeed = 17;
        QString error;
        // Math.max(...scaled) spreads up to 200,000 arguments: node needs a deeper stack for it.
        const QByteArray output = logitlab::test::runNodeScript(QStringLiteral("lesson_cases.js"),
                                                                {QString::number(kCases), QString::number(kSeed)}, {},
                                                                &error, {QStringLiteral("--stack-size=65500")});
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QList<QByteArray> lines = output.trimmed().split('\n');
        QCOMPARE(lines.size(), kCases);

        Mulberry32 rng(kSeed);
        int differing = 0;
        QString first;
        for (int i = 0; i < kCases; ++i) {
            const LessonCase c = makeCase(i, rng);
            const QByteArray ours = describe(c);
            if (ours == lines[i])
                continue;
            if (++differing <= 5)
                first += QStringLiteral("\n  case %1 (V %2, %3): lesson '%4', LogitLab '%5'")
                             .arg(i)
                             .arg(c.logits.size())
                             .arg(QString::fromStdString(describeSettings(c.settings)), QString::fromLatin1(lines[i]),
                                  QString::fromLatin1(ours));
        }
        qInfo("lesson JavaScript (node): %d cases compared, %d differ", kCases, differing);
        QVERIFY2(differing == 0, qPrintable(QStringLiteral("%1 of %2 cases differ (V softmax-hash survivors "
                                                           "survivor-hash draw):%3")
                                                .arg(differing)
                                                .arg(kCases)
                                                .arg(first)));
    }
};

QTEST_APPLESS_MAIN(TestLessonJavaScript)
#include "tst_lesson_javascript.moc"
