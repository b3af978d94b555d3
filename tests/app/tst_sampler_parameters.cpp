// The one table of sampler parameters: every row names a parameter its stage declares, every
// name and old spelling is used once, and every parameter round-trips settings -> chain -> JSON
// -> chain and settings -> JSON -> settings, read back under its old spellings too.
#include "app/io/json_object_reader.h"
#include "app/text/chain_json.h"
#include "app/text/sampler_settings_json.h"
#include "engine/sampler/chain_text.h"
#include "engine/stages/stage_factory.h"
#include "support/sampler_parameter_values.h"

#include <QTest>

#include <set>

using namespace logitlab;

using test::addParameterRows;
using test::currentParameter;

class TestSamplerParameters : public QObject {
    Q_OBJECT
private slots:
    void namesAndOldSpellingsAreUnique()
    {
        std::set<std::string> keys;
        for (const engine::SamplerParameter& p : engine::samplerParameters()) {
            QVERIFY2(keys.insert(p.name).second, p.name);
            for (const char* old : p.oldKeys)
                QVERIFY2(keys.insert(old).second, old);
            QVERIFY2((p.field != nullptr) + (p.list != nullptr) + (p.choice != nullptr) == 1, p.name);
            QVERIFY2((p.choice != nullptr) == !p.choices.empty(), p.name);
        }
    }

    void everyRowNamesADeclaredParameter_data() { addParameterRows(); }
    void everyRowNamesADeclaredParameter()
    {
        const engine::SamplerParameter& p = currentParameter();
        if (p.choice) {
            QVERIFY(!engine::stageSpec(p));  // the arithmetic is the whole chain's, no stage's
            return;
        }
        if (p.field == &engine::ChainSettings::mirostat) {
            QVERIFY(!engine::stageSpec(p));  // it picks mirostat's version rather than setting a value
            return;
        }
        const engine::ParameterSpec* spec = engine::stageSpec(p);
        QVERIFY2(spec, p.name);
        QCOMPARE(QString::fromStdString(spec->name), QString::fromLatin1(p.stageParameter));
        QCOMPARE(spec->kind == engine::ParameterKind::TokenList || spec->kind == engine::ParameterKind::BiasList,
                 p.list != nullptr);
        QVERIFY(p.list || p.minimum <= p.maximum);
    }

    // min-keep names its presets in the table; among the libraries' presets they are exactly those
    // with a stage declaring it (the lesson's epsilon and eta carry hf's min_keep, but the lesson
    // itself takes no min-keep setting).
    void minKeepPresetsMatchTheStages()
    {
        const engine::SamplerParameter& minKeep = *engine::findSamplerParameter("min-keep");
        QVERIFY(!engine::presetAccepts(minKeep, engine::Semantics::Lesson));
        for (engine::Semantics s : {engine::Semantics::LlamaCpp, engine::Semantics::Hf, engine::Semantics::Vllm}) {
            bool declared = false;
            for (const std::string& key : engine::presetOrder(s))
                if (auto stage = engine::makeStage(key == "mirostat" ? "mirostat-v2" : key, s))
                    declared = declared || stage.value()->findParameter("min-keep");
            QCOMPARE(engine::presetAccepts(minKeep, s), declared);
        }
    }

    // settings -> chain -> JSON -> chain, and the chain text, under a preset that has the setting.
    void everyParameterRoundTripsThroughTheChain_data() { addParameterRows(); }
    void everyParameterRoundTripsThroughTheChain()
    {
        const engine::SamplerParameter& p = currentParameter();
        const engine::Semantics semantics = test::presetFor(p);
        engine::ChainSettings settings = test::settingsWith(p);
        if (p.field == &engine::ChainSettings::minKeep)
            settings.topP = 0.5;  // min-keep shows on the stages it applies to
        const auto chain = engine::buildChain(settings, semantics);
        QVERIFY2(chain.ok(), chain.ok() ? "" : chain.error().c_str());
        const std::string text = engine::formatChain(chain.value());
        if (p.field != &engine::ChainSettings::mirostatTau && p.field != &engine::ChainSettings::mirostatEta &&
            p.field != &engine::ChainSettings::dynatempExponent && !p.choice)  // these alone ask for no stage
            QVERIFY2(!chain->stages().empty(), text.c_str());
        if (p.choice)
            QCOMPARE(engine::arithmeticName(chain->arithmetic()), test::choiceFor(p));

        const QJsonArray json = app::chainToJson(chain.value(), false);
        const auto back = app::chainFromJson(json, semantics);
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().c_str());
        QCOMPARE(QString::fromStdString(engine::formatChain(back.value())), QString::fromStdString(text));
        const auto parsed = engine::parseChain(text, semantics);
        QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().c_str());
        QCOMPARE(QString::fromStdString(engine::formatChain(parsed.value())), QString::fromStdString(text));
    }

    // settings -> JSON -> settings under the one spelling, and read back from each old spelling.
    void everyParameterRoundTripsThroughJson_data() { addParameterRows(); }
    void everyParameterRoundTripsThroughJson()
    {
        const engine::SamplerParameter& p = currentParameter();
        const engine::ChainSettings settings = test::settingsWith(p);
        const QJsonObject json = app::samplerSettingsToJson(settings);
        QCOMPARE(json.keys(), QStringList{QString::fromLatin1(p.name)});
        app::JsonObjectReader reader(json, QStringLiteral("sampler"));
        QVERIFY(app::readSamplerSettings(reader) == settings);
        reader.finish();

        for (const char* old : p.oldKeys) {
            QJsonObject oldJson{{QString::fromLatin1(old), json.value(QString::fromLatin1(p.name))}};
            app::JsonObjectReader oldReader(oldJson, QStringLiteral("sampler"));
            QVERIFY2(app::readSamplerSettings(oldReader) == settings, old);
            oldReader.finish();
        }
    }

    void bothSpellingsAtOnceAreRefused()
    {
        const QJsonObject json{{QStringLiteral("top-p"), 0.9}, {QStringLiteral("top_p"), 0.8}};
        app::JsonObjectReader reader(json, QStringLiteral("settings[0]"));
        try {
            app::readSamplerSettings(reader);
            QFAIL("both spellings were accepted");
        } catch (const app::JsonFieldError& e) {
            QCOMPARE(e.key, QStringLiteral("settings[0].top_p"));
            QCOMPARE(e.message, QStringLiteral("is the old spelling of top-p: give only one of them"));
        }
    }
};

QTEST_GUILESS_MAIN(TestSamplerParameters)
#include "tst_sampler_parameters.moc"
