// How the Explorer shows each numeric setting of engine::chainSettingFields(): the label, the
// one-sentence tooltip, the spin box's range and steps, and the value that means "not set"
// (the stage's own default, so leaving a box alone never changes what the chain does). When
// that value is the box's minimum the box shows `unsetText` there ("off", "default").
#pragma once

#include <QString>
#include <QStringList>

#include <vector>

namespace logitlab::ui {

struct StageFieldSpec {
    const char* name;  // engine::ChainSettingField::name
    int group;         // index into stageFieldGroups()
    QString label;
    QString tooltip;
    double minimum;
    double maximum;
    int decimals;
    double step;
    double unset;
    QString unsetText;
};

// The tabs the fields are grouped in: "Filters", "Penalties", "Adaptive".
const QStringList& stageFieldGroups();
const std::vector<StageFieldSpec>& stageFieldSpecs();

}  // namespace logitlab::ui
