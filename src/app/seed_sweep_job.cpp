#include "seed_sweep_job.h"

#include "background_run.h"
#include "csv_writer.h"

#include <QElapsedTimer>
#include <QJsonDocument>

namespace logitlab::app {

namespace {

QString hex(std::uint64_t value)
{
    return QStringLiteral("%1").arg(value, 16, 16, QLatin1Char('0'));
}

// "D=0.05 p=0.4", or why there is no test (a chain that leaves one token has 0 degrees of freedom).
QString ksText(const engine::KsTest& ks, const engine::SeedSweepSummary& s)
{
    if (!ks.tested)
        return QString::fromStdString(s.noTest.empty() ? "no test" : s.noTest);
    return QStringLiteral("D=%1 p=%2").arg(CsvWriter::number(ks.statistic), CsvWriter::number(ks.pValue));
}

// A per-seed p-value, or an empty cell where the test had 0 degrees of freedom.
QString pText(const engine::FitTest& test)
{
    return test.tested ? CsvWriter::number(test.pValue) : QString();
}

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
        outcome.status = {RunStatus::State::Failed, source + QStringLiteral(": ") + QString::fromStdString(prepared.error())};
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

QFuture<SeedSweepOutcome> startSeedSweep(const SeedSweepSpec& spec, const QString& baseDir, const QString& source,
                                         int threads)
{
    return runInBackground<SeedSweepOutcome>([spec, baseDir, source, threads](const WorkControl& control) {
        return runSeedSweep(spec, baseDir, source, threads, control);
    });
}

Provenance seedSweepProvenance(const SeedSweepSpec& spec, const QString& baseDir)
{
    const auto seeds = spec.seeds();
    Provenance p(QStringLiteral("seed-sweep"));
    p.add(QStringLiteral("name"), spec.name)
        .add(QStringLiteral("distribution"), describeDistribution(spec.distribution, baseDir))
        .add(QStringLiteral("semantics"), spec.semantics)
        .add(QStringLiteral("chain"), spec.chain)
        .add(QStringLiteral("rng"), spec.rng)
        .add(QStringLiteral("seeds"), spec.seedRange ? QStringLiteral("%1..%2").arg(spec.firstSeed).arg(spec.firstSeed + spec.seedCount - 1)
                                                     : QStringLiteral("%1 listed").arg(spec.seedList.size()))
        .add(QStringLiteral("draws-per-seed"), QString::number(spec.draws))
        .add(QStringLiteral("seeds-per-work-item"), QString::number(engine::SeedSweepExperiment::kSeedsPerItem))
        .add(QStringLiteral("experiment-file"), QString::fromUtf8(QJsonDocument(toJson(spec)).toJson(QJsonDocument::Compact)));
    return p;
}

Provenance seedSweepResultHeader(const Provenance& provenance, const SeedSweepOutcome& outcome)
{
    const auto& s = outcome.summary;
    Provenance p = provenance;
    p.add(QStringLiteral("result: evaluated chain"), outcome.chain)
        .add(QStringLiteral("result: per-seed tests use"), QStringLiteral("%1 bins (tokens expecting < 5 draws pooled)").arg(s.pooledBins))
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
        p.add(QStringLiteral("result: compared seeds"), QStringLiteral("first differ at draw %1").arg(*s.firstDifference));
    return p;
}

QString seedSweepTokensCsv(const Provenance& header, const SeedSweepOutcome& outcome)
{
    CsvWriter csv(header, {QStringLiteral("token_id"), QStringLiteral("token"), QStringLiteral("p"),
                           QStringLiteral("pooled_count"), QStringLiteral("expected_count"), QStringLiteral("min"),
                           QStringLiteral("q1"), QStringLiteral("median"), QStringLiteral("q3"), QStringLiteral("max"),
                           QStringLiteral("times_most_drawn")});
    for (std::size_t i = 0; i < outcome.summary.tokens.size(); ++i) {
        const auto& t = outcome.summary.tokens[i];
        csv.addRow({QString::number(t.id), outcome.tokenNames.value(static_cast<qsizetype>(i)), CsvWriter::number(t.expected),
                    QString::number(t.pooled), CsvWriter::number(t.expectedPooled), CsvWriter::number(t.min),
                    CsvWriter::number(t.q1), CsvWriter::number(t.median), CsvWriter::number(t.q3), CsvWriter::number(t.max),
                    QString::number(t.timesMostDrawn)});
    }
    return csv.text();
}

QString seedSweepSeedsCsv(const Provenance& header, const SeedSweepOutcome& outcome)
{
    QStringList columns{QStringLiteral("seed"), QStringLiteral("chi_square"), QStringLiteral("chi_square_df"),
                        QStringLiteral("chi_square_p"), QStringLiteral("g"), QStringLiteral("g_p"),
                        QStringLiteral("most_drawn"), QStringLiteral("sequence_hash")};
    const int shown = std::min<int>(kSeedTableTokenColumns, static_cast<int>(outcome.tokenNames.size()));
    for (int t = 0; t < shown; ++t)
        columns << QStringLiteral("count:") + outcome.tokenNames[t];
    CsvWriter csv(header, columns);
    for (const auto& r : outcome.results) {
        QStringList row{QString::number(r.seed),
                        CsvWriter::number(r.chiSquare.statistic),
                        QString::number(r.chiSquare.degreesOfFreedom),
                        pText(r.chiSquare),
                        CsvWriter::number(r.gTest.statistic),
                        pText(r.gTest),
                        outcome.tokenNames.value(static_cast<qsizetype>(r.mostDrawn)),
                        hex(r.hash)};
        for (int t = 0; t < shown; ++t)
            row << QString::number(r.counts[static_cast<std::size_t>(t)]);
        csv.addRow(row);
    }
    return csv.text();
}

}  // namespace logitlab::app
