#include "stage_field_specs.h"

#include <QCoreApplication>

namespace logitlab::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("StageFieldSpecs", text);
}

enum Group { Truncation, Penalties, Adaptive };

}  // namespace

const QStringList& stageFieldGroups()
{
    static const QStringList groups{tr("Filters"), tr("Penalties"), tr("Adaptive")};
    return groups;
}

const std::vector<StageFieldSpec>& stageFieldSpecs()
{
    static const std::vector<StageFieldSpec> specs{
        {"min-p", Truncation, tr("&Min-p"),
         tr("Keeps tokens whose probability is at least min-p times the top token's; off keeps them all."),
         0.0, 1.0, 3, 0.01, 0.0, tr("off")},
        {"typical", Truncation, tr("T&ypical"),
         tr("Keeps the tokens closest to the distribution's typical surprise, up to this much probability; off "
            "keeps them all."),
         0.0, 1.0, 3, 0.01, 0.0, tr("off")},
        {"epsilon", Truncation, tr("Epsilon"),
         tr("Hugging Face's epsilon cutoff: drops every token whose probability is below epsilon."),
         0.0, 0.999, 4, 0.0005, 0.0, tr("off")},
        {"eta", Truncation, tr("Eta"),
         tr("Hugging Face's eta cutoff: like epsilon, but the bar rises when the distribution is peaked."),
         0.0, 0.999, 4, 0.0005, 0.0, tr("off")},
        {"top-n-sigma", Truncation, tr("Top-n-σ"),
         tr("Keeps logits within n standard deviations of the largest logit (llama.cpp)."),
         0.0, 10.0, 2, 0.1, 0.0, tr("off")},
        {"min-keep", Truncation, tr("Min keep"),
         tr("The truncating samplers keep at least this many tokens (llama.cpp and Hugging Face)."),
         0.0, 1000.0, 0, 1.0, 0.0, tr("default")},
        {"repeat-penalty", Penalties, tr("&Repeat"),
         tr("Divides the positive logits (multiplies the negative ones) of tokens in the context by this; 1 is "
            "off."),
         0.0, 10.0, 2, 0.05, 0.0, tr("off")},
        {"frequency-penalty", Penalties, tr("&Frequency"),
         tr("Subtracts this times the number of times a token occurs in the context from its logit."),
         -2.0, 2.0, 2, 0.05, 0.0, QString()},
        {"presence-penalty", Penalties, tr("Pre&sence"),
         tr("Subtracts this from the logit of every token that occurs in the context at all."),
         -2.0, 2.0, 2, 0.05, 0.0, QString()},
        {"penalty-last-n", Penalties, tr("Penalty window"),
         tr("How many of the last context tokens the penalties look at; -1 is all of them, default is the "
            "preset's (llama.cpp 64)."),
         -2.0, 100'000.0, 0, 1.0, -2.0, tr("default")},
        {"no-repeat-ngram", Penalties, tr("No-repeat n-gram"),
         tr("Bans any token that would repeat an n-gram already in the context (Hugging Face)."),
         0.0, 10.0, 0, 1.0, 0.0, tr("off")},
        {"dry-multiplier", Penalties, tr("DRY multiplier"),
         tr("DRY penalises a token that would extend a sequence repeated from the context; 0 is off (llama.cpp)."),
         0.0, 10.0, 2, 0.05, 0.0, tr("off")},
        {"dry-base", Penalties, tr("DRY base"),
         tr("The DRY penalty grows as base to the power of the repeat's length beyond the allowed length."),
         1.0, 10.0, 2, 0.05, 1.75, QString()},
        {"dry-allowed-length", Penalties, tr("DRY allowed length"),
         tr("Repeats up to this many tokens long are not penalised by DRY."),
         0.0, 100.0, 0, 1.0, 2.0, QString()},
        {"dry-penalty-last-n", Penalties, tr("DRY window"),
         tr("How many of the last context tokens DRY looks at."),
         -1.0, 100'000.0, 0, 1.0, -1.0, tr("all")},
        {"xtc-probability", Adaptive, tr("&XTC probability"),
         tr("Exclude Top Choices: with this chance, removes every token above the threshold except the least "
            "likely of them (llama.cpp)."),
         0.0, 1.0, 2, 0.05, 0.0, tr("off")},
        {"xtc-threshold", Adaptive, tr("XTC threshold"),
         tr("The probability a token needs for XTC to count it as a top choice."),
         0.0, 1.0, 3, 0.01, 0.1, QString()},
        {"mirostat", Adaptive, tr("Mi&rostat"),
         tr("Mirostat 1 or 2 cuts the tail to aim at a target surprise; it replaces the llama.cpp chain with "
            "temperature and mirostat."),
         0.0, 2.0, 0, 1.0, 0.0, tr("off")},
        {"mirostat-tau", Adaptive, tr("Mirostat τ"),
         tr("Mirostat's target surprise, in bits: higher keeps more tokens."),
         0.0, 20.0, 2, 0.1, 5.0, QString()},
        {"mirostat-eta", Adaptive, tr("Mirostat η"),
         tr("Mirostat's learning rate: how fast it corrects towards the target after each token."),
         0.0, 1.0, 3, 0.01, 0.1, QString()},
        {"dynatemp-range", Adaptive, tr("Dynamic T range"),
         tr("Dynamic temperature: T moves within ± this range, lower when the model is sure (llama.cpp)."),
         0.0, 5.0, 2, 0.05, 0.0, tr("off")},
        {"dynatemp-exponent", Adaptive, tr("Dynamic T exponent"),
         tr("How sharply dynamic temperature follows the distribution's entropy."),
         0.0, 10.0, 2, 0.1, 1.0, QString()},
    };
    return specs;
}

}  // namespace logitlab::ui
