#include "app/kinds/seed_sweep_job.h"

#include "app/io/csv_writer.h"
#include "app/text/counted.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QObject>

#include <algorithm>

namespace logitlab::app {

namespace {

QString hex(std::uint64_t value) { return QStringLiteral("%1").arg(value, 16, 16, QLatin1Char('0')); }

// "D=0.05 p=0.4", or why there is no test (a chain that leaves one token has 0 degrees of freedom).
QString ksText(const engine::KsTest& ks, const engine::SeedSweepSummary& s)
{
    if (!ks.tested)
        return QString::fromStdString(!s.noTest.empty() ? s.noTest : !s.gNoTest.empty() ? s.gNoTest : "no test");
    const QString text = QStringLiteral("D=%1 p=%2").arg(CsvWriter::number(ks.statistic), CsvWriter::number(ks.pValue));
    return ks.method == "exact" ? text : text + QStringLiteral(" (%1)").arg(QString::fromStdString(ks.method));
}

// A per-seed p-value, or an empty cell where the test had 0 degrees of freedom.
QVariant pValue(const engine::FitTest& test) { return test.tested ? QVariant(test.pValue) : QVariant(); }

}  // namespace

SeedSweepOutcome runSeedSweep(const SeedSweepSpec& spec, const QString& baseDir, const QString& source, int threads,
                              const WorkControl& control)
{
    QElapsedTimer timer;
    timer.start();
    SeedSweepOutcome outcome;
    auto input = toSeedSweepInput(spec, baseDir, source);
    if (!input) {
        outcome.status = {RunStatus::State::Failed, QString::fromStdString(input.error())};
        return outcome;
    }
    outcome.chain = QString::fromStdString(input->parameters.source->describe());
    auto prepared = engine::SeedSweepExperiment::prepare(input->parameters);
    if (!prepared) {
        outcome.status = {RunStatus::State::Failed,
                          source + QStringLiteral(": ") + QString::fromStdString(prepared.error())};
        return outcome;
    }
    const engine::SeedSweepExperiment& experiment = prepared.value();
    for (std::int32_t id : input->parameters.source->outcomeIds())
        outcome.tokenNames << QString::fromStdString(input->distribution.tokenName(id));

    // Each item writes only its own seeds' slots, so the result is the same for any thread count.
    std::vector<engine::SeedResult> results = experiment.emptyResults();
    outcome.status = runWorkItems(
        experiment.itemCount(), threads, [&](int, std::size_t item) { experiment.runItem(item, results); }, control);
    if (!outcome.status.finished())
        return outcome;
    outcome.summary = experiment.summarise(results);
    outcome.replayIdentical = experiment.replayHash(results.front().seed) == results.front().hash;
    outcome.results = std::move(results);
    outcome.draws = static_cast<std::uint64_t>(spec.draws) * outcome.results.size();
    outcome.seconds = static_cast<double>(timer.nsecsElapsed()) / 1e9;
    return outcome;
}

QString seedSweepPlainWords(const engine::SeedSweepSummary& summary)
{
    if (!summary.tested()) {
        if (summary.pooledBins <= 1 && summary.tokens.size() > 1)
            return QObject::tr("Not enough draws for the test to say anything: every token expects fewer than "
                               "%1 draws per seed. Draw more per seed.")
                .arg(engine::SeedSweepExperiment::kMinExpectedPerBin);
        return QObject::tr("Nothing to test: only one token can come out, so every draw is that token.");
    }
    if (seedSweepConsistent(summary))
        return QObject::tr("The counts vary by seed as much as chance predicts: the sampler looks right.");
    return QObject::tr("The counts vary by seed more than chance predicts: the draws do not follow the claimed "
                       "probabilities, so the sampler (or what it claims) looks wrong.");
}

Provenance& addSamplingProvenance(Provenance& p, const SeedSweepSpec& spec)
{
    return p.add(QStringLiteral("semantics"), spec.semantics)
        .add(QStringLiteral("chain"), spec.chain)
        .add(QStringLiteral("arithmetic"), arithmeticUsed(spec.semantics, spec.arithmetic))
        .add(QStringLiteral("rng"), spec.rng)
        .add(QStringLiteral("seeds"),
             spec.seedRange ? QStringLiteral("%1..%2").arg(spec.firstSeed).arg(spec.firstSeed + spec.seedCount - 1)
                            : QStringLiteral("%1 listed").arg(spec.seedList.size()));
}

Provenance seedSweepProvenance(const SeedSweepSpec& spec, const QString& baseDir)
{
    const auto seeds = spec.seeds();
    Provenance p(seedSweepKind().id());
    p.add(QStringLiteral("name"), spec.name)
        .add(QStringLiteral("distribution"), describeDistribution(spec.distribution, baseDir));
    addSamplingProvenance(p, spec)
        .add(QStringLiteral("draws-per-seed"), QString::number(spec.draws))
        .add(QStringLiteral("seeds-per-work-item"), QString::number(engine::SeedSweepExperiment::kSeedsPerItem))
        .add(QStringLiteral("experiment-file"),
             QString::fromUtf8(QJsonDocument(toJson(spec)).toJson(QJsonDocument::Compact)));
    return p;
}

Provenance seedSweepResultHeader(const Provenance& provenance, const SeedSweepOutcome& outcome)
{
    const auto& s = outcome.summary;
    Provenance p = provenance;
    p.add(QStringLiteral("result: evaluated chain"), outcome.chain)
        .add(QStringLiteral("result: per-seed tests use"),
             QStringLiteral("%1 bins (tokens expecting < 5 draws pooled)").arg(s.pooledBins))
        .add(QStringLiteral("result: per-seed G-tests use"),
             QStringLiteral("%1 bins (tokens expecting < 10 draws pooled; p of G / q, Williams' correction)")
                 .arg(s.gTestBins))
        .add(QStringLiteral("result: KS of chi-square p-values"), ksText(s.chiSquareUniformity, s))
        .add(QStringLiteral("result: KS of G-test p-values"), ksText(s.gTestUniformity, s))
        .add(QStringLiteral("result: pooled chi-square"),
             s.pooledChiSquare.tested ? QStringLiteral("%1 on %2 dof, p=%3")
                                            .arg(CsvWriter::number(s.pooledChiSquare.statistic))
                                            .arg(s.pooledChiSquare.degreesOfFreedom)
                                            .arg(CsvWriter::number(s.pooledChiSquare.pValue))
                                      : QString::fromStdString(s.noTest.empty() ? "no test" : s.noTest))
        .add(QStringLiteral("result: replay of the first seed"),
             outcome.replayIdentical ? QStringLiteral("replayed bit for bit") : QStringLiteral("DIFFERED"));
    if (s.comparedIdentical)
        p.add(QStringLiteral("result: compared seeds"), QStringLiteral("identical sequences"));
    else if (s.firstDifference)
        p.add(QStringLiteral("result: compared seeds"),
              QStringLiteral("first differ at draw %1").arg(*s.firstDifference));
    return p;
}

ExperimentResult seedSweepResult(const SeedSweepSpec& spec, const QString& baseDir, SeedSweepOutcome outcome,
                                 int threads)
{
    ExperimentResult result = resultOf(seedSweepKind().id(), spec.name, outcome.status);
    if (!result.status.finished())
        return result;
    result.provenance = seedSweepResultHeader(seedSweepProvenance(spec, baseDir), outcome);
    const auto& ks = outcome.summary.chiSquareUniformity;
    // A chain that leaves one token has nothing to test: say so instead of a KS p-value of 1s.
    const QString test = outcome.summary.tested() ? QObject::tr("KS p = %1").arg(ks.pValue, 0, 'g', 3)
                                                  : QString::fromStdString(outcome.summary.noTest);
    result.summary =
        QObject::tr("%1: %2 x %3 in %4 s on %5; %6; first seed %7")
            .arg(spec.name)
            .arg(counted(qint64(outcome.results.size()), "seed", "seeds"))
            .arg(counted(qint64(spec.draws), "draw", "draws"))
            .arg(outcome.seconds, 0, 'f', 2)
            .arg(counted(threads, "thread", "threads"))
            .arg(test)
            .arg(outcome.replayIdentical ? QObject::tr("replayed bit for bit") : QObject::tr("did NOT replay"));
    auto run = std::make_shared<const SeedSweepRun>(SeedSweepRun{spec, std::move(outcome)});
    const auto shared = std::shared_ptr<const SeedSweepOutcome>(run, &run->outcome);
    result.tables = {seedSweepTokensTable(shared), seedSweepSeedsTable(shared)};
    result.details = run;
    return result;
}

ResultTable seedSweepTokensTable(std::shared_ptr<const SeedSweepOutcome> outcome)
{
    using Kind = ResultColumn::Kind;
    const auto token = [outcome](std::size_t i) -> const engine::TokenSpread& { return outcome->summary.tokens[i]; };
    const auto real = [token](double engine::TokenSpread::*field) {
        return [token, field](std::size_t i) { return QVariant(token(i).*field); };
    };
    ResultTable table;
    table.title = QObject::tr("Per token");
    table.rows = outcome->summary.tokens.size();
    table.columns = {
        {QStringLiteral("token_id"), QObject::tr("id"), Kind::Integer,
         [token](std::size_t i) { return QVariant(qint64(token(i).id)); }, QObject::tr("The token's id.")},
        {QStringLiteral("token"), QObject::tr("token"), Kind::Text,
         [outcome](std::size_t i) { return QVariant(outcome->tokenNames.value(static_cast<qsizetype>(i))); },
         QObject::tr("The token.")},
        {QStringLiteral("p"), QObject::tr("p"), Kind::Real, real(&engine::TokenSpread::expected),
         QObject::tr("The probability the chain gives the token."), 4},
        {QStringLiteral("pooled_count"), QObject::tr("drawn (all seeds)"), Kind::Integer,
         [token](std::size_t i) { return QVariant(qint64(token(i).pooled)); },
         QObject::tr("Draws of the token over every seed.")},
        {QStringLiteral("expected_count"), QObject::tr("expected"), Kind::Real,
         real(&engine::TokenSpread::expectedPooled), QObject::tr("p times seeds times draws."), 1},
        {QStringLiteral("min"), QObject::tr("min"), Kind::Real, real(&engine::TokenSpread::min),
         QObject::tr("Fewest draws in one seed."), 0},
        {QStringLiteral("q1"), QObject::tr("q1"), Kind::Real, real(&engine::TokenSpread::q1),
         QObject::tr("Lower quartile of the per-seed counts."), 1},
        {QStringLiteral("median"), QObject::tr("median"), Kind::Real, real(&engine::TokenSpread::median),
         QObject::tr("Median per-seed count."), 1},
        {QStringLiteral("q3"), QObject::tr("q3"), Kind::Real, real(&engine::TokenSpread::q3),
         QObject::tr("Upper quartile of the per-seed counts."), 1},
        {QStringLiteral("max"), QObject::tr("max"), Kind::Real, real(&engine::TokenSpread::max),
         QObject::tr("Most draws in one seed."), 0},
        {QStringLiteral("times_most_drawn"), QObject::tr("seeds where most drawn"), Kind::Integer,
         [token](std::size_t i) { return QVariant(qint64(token(i).timesMostDrawn)); },
         QObject::tr("Seeds in which the token was drawn most.")},
    };
    return table;
}

ResultTable seedSweepSeedsTable(std::shared_ptr<const SeedSweepOutcome> outcome)
{
    using Kind = ResultColumn::Kind;
    const auto seed = [outcome](std::size_t i) -> const engine::SeedResult& { return outcome->results[i]; };
    ResultTable table;
    table.suffix = QStringLiteral("-seeds");
    table.title = QObject::tr("Per seed");
    table.rows = outcome->results.size();
    table.columns = {
        {QStringLiteral("seed"), QObject::tr("seed"), Kind::Integer,
         [seed](std::size_t i) { return QVariant(qulonglong(seed(i).seed)); }, QObject::tr("The seed.")},
        {QStringLiteral("chi_square"), QObject::tr("chi-square"), Kind::Real,
         [seed](std::size_t i) { return QVariant(seed(i).chiSquare.statistic); },
         QObject::tr("Pearson's statistic of the seed's counts against the expected ones."), 3},
        {QStringLiteral("chi_square_df"), QObject::tr("df"), Kind::Integer,
         [seed](std::size_t i) { return QVariant(qint64(seed(i).chiSquare.degreesOfFreedom)); },
         QObject::tr("Degrees of freedom after pooling.")},
        {QStringLiteral("chi_square_p"), QObject::tr("chi-square p"), Kind::Real,
         [seed](std::size_t i) { return pValue(seed(i).chiSquare); },
         QObject::tr("Chi-square p-value: flat between 0 and 1 for a correct sampler."), 4},
        {QStringLiteral("g"), QObject::tr("G"), Kind::Real,
         [seed](std::size_t i) { return QVariant(seed(i).gTest.statistic); },
         QObject::tr("The G-test (likelihood ratio) statistic."), 3},
        {QStringLiteral("g_p"), QObject::tr("G p"), Kind::Real, [seed](std::size_t i) { return pValue(seed(i).gTest); },
         QObject::tr("G-test p-value."), 4},
        {QStringLiteral("most_drawn"), QObject::tr("most drawn"), Kind::Text,
         [outcome, seed](std::size_t i) {
             return QVariant(outcome->tokenNames.value(static_cast<qsizetype>(seed(i).mostDrawn)));
         },
         QObject::tr("The token drawn most often with this seed.")},
        {QStringLiteral("sequence_hash"), QObject::tr("sequence hash"), Kind::Text,
         [seed](std::size_t i) { return QVariant(hex(seed(i).hash)); },
         QObject::tr("Hash of the drawn sequence: equal hashes, equal sequences.")},
    };
    const int shown = std::min<int>(kSeedTableTokenColumns, static_cast<int>(outcome->tokenNames.size()));
    for (int t = 0; t < shown; ++t)
        table.columns.push_back(
            {QStringLiteral("count:") + outcome->tokenNames[t], outcome->tokenNames[t], Kind::Integer,
             [seed, t](std::size_t i) { return QVariant(qint64(seed(i).counts[static_cast<std::size_t>(t)])); },
             QObject::tr("Draws of this token with this seed.")});
    return table;
}

}  // namespace logitlab::app
