#include "ui/forms/stage_field_specs.h"

#include <QCoreApplication>

namespace logitlab::ui {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("StageFieldSpecs", text); }

}  // namespace

const QStringList& stageFieldGroups()
{
    static const QStringList groups{tr("Filters"), tr("Penalties"), tr("Adaptive")};
    return groups;
}

int stageFieldGroup(const engine::SamplerParameter& parameter)
{
    switch (parameter.group) {
    case engine::ParameterGroup::Filters:
        return 0;
    case engine::ParameterGroup::Penalties:
        return 1;
    case engine::ParameterGroup::Adaptive:
        return 2;
    case engine::ParameterGroup::Lesson:
    case engine::ParameterGroup::TokenList:
    case engine::ParameterGroup::Choice:
        break;
    }
    return -1;
}

QString parameterLabel(const engine::SamplerParameter& parameter)
{
    return QCoreApplication::translate("SamplerParameters", parameter.label);
}

QString parameterTooltip(const engine::SamplerParameter& parameter)
{
    return QCoreApplication::translate("SamplerParameters", parameter.tooltip);
}

}  // namespace logitlab::ui
