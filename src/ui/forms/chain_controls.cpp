#include "ui/forms/chain_controls.h"

#include "app/kinds/explorer_run.h"
#include "engine/models/token_reference.h"
#include "ui/forms/chain_order_list.h"
#include "ui/forms/stage_field_specs.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTabBar>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <type_traits>

namespace logitlab::ui {

namespace {

constexpr int kSliderSteps = 100;  // slider units per 1.0 of temperature

const engine::SamplerParameter& parameter(const std::string& name) { return *engine::findSamplerParameter(name); }

// A box as the table describes its setting: range, decimals, step, tooltip, and the value that
// means "not set" (shown as "off", "default", ... when it is the box's minimum).
template <class Box>
void configureBox(Box* box, const engine::SamplerParameter& p)
{
    using Value = decltype(box->value());
    const double notSet = engine::notSetValue(p);
    const double minimum = std::min(notSet, p.minimum);
    box->setRange(static_cast<Value>(minimum), static_cast<Value>(p.maximum));
    if constexpr (std::is_same_v<Box, QDoubleSpinBox>)
        box->setDecimals(p.decimals);
    box->setSingleStep(static_cast<Value>(p.step));
    box->setValue(static_cast<Value>(notSet));
    if (*p.notSetText != '\0' && notSet == minimum)
        box->setSpecialValueText(QCoreApplication::translate("SamplerParameters", p.notSetText));
    box->setToolTip(parameterTooltip(p));
    box->setObjectName(QString::fromLatin1(p.name));
}

// A row whose label carries its control's tooltip and focuses it (Alt+letter).
QLabel* addRow(QFormLayout* form, const QString& text, QWidget* buddy, QWidget* field)
{
    auto* label = new QLabel(text);
    label->setBuddy(buddy);
    label->setToolTip(buddy->toolTip());
    form->addRow(label, field);
    return label;
}

}  // namespace

ChainControls::ChainControls(QWidget* parent)
    : QWidget(parent), m_temperature(new QDoubleSpinBox), m_temperatureSlider(new QSlider(Qt::Horizontal)),
      m_topK(new QSpinBox), m_topP(new QDoubleSpinBox), m_semantics(new QComboBox), m_arithmetic(new QCheckBox),
      m_context(new QLineEdit), m_logitBias(new QLineEdit), m_dryBreakers(new QLineEdit), m_tabs(new QTabBar),
      m_stack(new QStackedWidget), m_orderList(new ChainOrderList), m_presetOrder(new QPushButton(tr("Preset &order"))),
      m_greedy(new QLabel(tr("<b>greedy: argmax</b>"))), m_problem(new QLabel), m_order(new QLabel)
{
    configureBox(m_temperature, parameter("temperature"));
    m_temperature->setAccelerated(true);
    m_temperatureSlider->setRange(0, 3 * kSliderSteps);
    m_temperatureSlider->setValue(kSliderSteps);
    m_temperatureSlider->setToolTip(m_temperature->toolTip());
    configureBox(m_topK, parameter("top-k"));
    configureBox(m_topP, parameter("top-p"));
    m_topP->setValue(0.9);
    for (engine::Semantics sem : engine::allSemantics())
        m_semantics->addItem(QString::fromStdString(engine::semanticsName(sem)));
    m_semantics->setToolTip(tr("Whose rules run the chain: the order of the stages, the boundaries and the ties "
                               "of the lesson, llama.cpp, Hugging Face or vLLM."));
    m_arithmetic->setText(parameterLabel(parameter("arithmetic")));
    m_arithmetic->setToolTip(parameterTooltip(parameter("arithmetic")));
    m_arithmetic->setObjectName(QStringLiteral("arithmetic"));
    m_problem->setStyleSheet(QStringLiteral("color: #c62828; font-weight: bold"));
    m_problem->setWordWrap(true);
    m_problem->hide();
    m_greedy->setToolTip(tr("At temperature 0 there is no die roll: the most likely token is taken every time."));
    m_order->setWordWrap(true);
    m_order->setToolTip(tr("The active stages in the order they run, then the renormalisation and the draw."));
    m_context->setPlaceholderText(tr("e.g. users data users"));
    m_context->setToolTip(tr("The tokens generated before this step, oldest first, by name or #id: what the "
                             "penalties, DRY and the n-gram ban look at."));
    m_logitBias->setPlaceholderText(tr("e.g. banana:-inf, users:+1.5"));
    m_logitBias->setToolTip(parameterTooltip(parameter("logit-bias")));
    m_dryBreakers->setPlaceholderText(tr("e.g. #13 #198"));
    m_dryBreakers->setToolTip(parameterTooltip(parameter("dry-breakers")));
    m_presetOrder->setToolTip(tr("Puts the stages back in the preset's own order."));
    m_orderList->setMaximumHeight(150);

    auto* tempRow = new QHBoxLayout;
    tempRow->addWidget(m_temperatureSlider, 1);
    tempRow->addWidget(m_temperature);
    tempRow->setContentsMargins(0, 0, 0, 0);
    auto* tempField = new QWidget;
    tempField->setLayout(tempRow);
    auto* form = new QFormLayout;
    form->setContentsMargins(0, 0, 0, 0);
    addRow(form, tr("&Semantics"), m_semantics, m_semantics);
    form->addRow(QString(), m_arithmetic);
    addRow(form, parameterLabel(parameter("temperature")), m_temperature, tempField);
    form->addRow(QString(), m_greedy);
    addRow(form, parameterLabel(parameter("top-k")), m_topK, m_topK);
    addRow(form, parameterLabel(parameter("top-p")), m_topP, m_topP);

    // A tab bar over a stacked widget rather than a QTabWidget: the stack can take the height of
    // the page on show, where a QTabWidget keeps the height of its tallest page (Penalties).
    const auto addTab = [this](QWidget* page, const QString& title) {
        m_tabs->addTab(title);
        m_stack->addWidget(page);
    };
    for (int group = 0; group < stageFieldGroups().size(); ++group)
        addTab(buildStageTab(group), stageFieldGroups()[group]);
    auto* bias = new QWidget;
    auto* biasForm = new QFormLayout(bias);
    addRow(biasForm, parameterLabel(parameter("logit-bias")), m_logitBias, m_logitBias);
    addTab(bias, tr("Bias"));
    m_tabs->setDocumentMode(true);
    m_tabs->setExpanding(false);
    m_tabs->setToolTip(tr("The further stages of the chain; a setting whose stage the preset's library lacks is "
                          "dimmed."));
    const auto showTab = [this](int current) {
        for (int i = 0; i < m_stack->count(); ++i)
            m_stack->widget(i)->setSizePolicy(QSizePolicy::Preferred,
                                              i == current ? QSizePolicy::Preferred : QSizePolicy::Ignored);
        m_stack->setCurrentIndex(current);
    };
    connect(m_tabs, &QTabBar::currentChanged, this, showTab);
    showTab(0);

    auto* orderHeader = new QHBoxLayout;
    auto* orderLabel = new QLabel(tr("Chain order (drag to reorder)"));
    orderLabel->setToolTip(m_orderList->toolTip());
    orderHeader->addWidget(orderLabel, 1);
    orderHeader->addWidget(m_presetOrder);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(form);
    layout->addWidget(m_tabs);
    layout->addWidget(m_stack);
    layout->addLayout(orderHeader);
    layout->addWidget(m_orderList);
    layout->addWidget(m_order);
    layout->addWidget(m_problem);

    connect(m_temperatureSlider, &QSlider::valueChanged, this, [this](int v) {
        if (m_updating)
            return;
        m_temperature->setValue(double(v) / kSliderSteps);  // emits through the spin box
    });
    connect(m_temperature, &QDoubleSpinBox::valueChanged, this, [this](double t) {
        const QSignalBlocker block(m_temperatureSlider);
        m_temperatureSlider->setValue(static_cast<int>(std::lround(t * kSliderSteps)));
        userChanged(true);
    });
    connect(m_topK, &QSpinBox::valueChanged, this, [this] { userChanged(false); });
    connect(m_arithmetic, &QCheckBox::toggled, this, [this](bool library) {
        if (m_updating)
            return;
        m_arithmeticChoice = engine::arithmeticName(library ? engine::Arithmetic::Library : engine::Arithmetic::Exact);
        userChanged(false);
    });
    connect(m_topP, &QDoubleSpinBox::valueChanged, this, [this] { userChanged(false); });
    for (const auto& [name, box] : m_boxes)
        connect(box, &QDoubleSpinBox::valueChanged, this, [this] { userChanged(false); });
    connect(m_semantics, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_updating)
            m_customOrder.clear();  // an order names one preset's stages
        userChanged(false);
    });
    for (QLineEdit* edit : {m_context, m_logitBias, m_dryBreakers})
        connect(edit, &QLineEdit::editingFinished, this, [this, edit] { tokenFieldEdited(edit); });
    connect(m_orderList, &ChainOrderList::orderChanged, this, [this](const std::vector<std::string>& order) {
        m_customOrder = order == engine::presetOrder(chain().semantics) ? std::vector<std::string>{} : order;
        userChanged(false);
    });
    connect(m_presetOrder, &QPushButton::clicked, this, [this] {
        if (m_customOrder.empty())
            return;
        m_customOrder.clear();
        userChanged(false);
    });
    updateLabels();
}

QWidget* ChainControls::buildStageTab(int group)
{
    auto* page = new QWidget;
    auto* form = new QFormLayout(page);
    if (group == 1)  // the penalties look at the context: it comes first
        addRow(form, tr("&Context"), m_context, m_context);
    for (const engine::SamplerParameter& p : engine::samplerParameters()) {
        if (stageFieldGroup(p) != group)
            continue;
        auto* box = new QDoubleSpinBox;
        configureBox(box, p);
        m_boxes[p.name] = box;
        m_boxLabels[p.name] = addRow(form, parameterLabel(p), box, box);
    }
    if (group == 1)
        addRow(form, parameterLabel(parameter("dry-breakers")), m_dryBreakers, m_dryBreakers);
    return page;
}

QDoubleSpinBox* ChainControls::stageBox(const std::string& name) const
{
    const auto found = m_boxes.find(name);
    return found == m_boxes.end() ? nullptr : found->second;
}

engine::SamplerSettings ChainControls::settings() const
{
    engine::SamplerSettings s;
    s.temperature = m_temperature->value();
    if (m_topK->value() > 0)
        s.topK = m_topK->value();
    if (m_topP->value() > 0.0)
        s.topP = m_topP->value();
    return s;
}

engine::ExplorerChain ChainControls::chain() const
{
    engine::ExplorerChain c;
    c.semantics = engine::allSemantics()[static_cast<std::size_t>(std::max(0, m_semantics->currentIndex()))];
    c.lesson = settings();
    // A box left at its stage's default sets nothing: leaving it alone never changes the chain.
    for (const auto& [name, box] : m_boxes)
        if (box->value() != engine::notSetValue(parameter(name)))
            c.stages.*parameter(name).field = box->value();
    c.stages.logitBias = m_biasSpelling;
    c.stages.dryBreakers = m_breakerSpelling;
    c.stages.order = m_customOrder;
    c.stages.arithmetic = m_arithmeticChoice;
    c.context = m_contextIds;
    return c;
}

void ChainControls::setChain(const engine::ExplorerChain& chain)
{
    m_updating = true;
    const auto& all = engine::allSemantics();
    m_semantics->setCurrentIndex(static_cast<int>(std::find(all.begin(), all.end(), chain.semantics) - all.begin()));
    m_temperature->setValue(chain.lesson.temperature);
    m_temperatureSlider->setValue(static_cast<int>(std::lround(chain.lesson.temperature * kSliderSteps)));
    m_topK->setValue(chain.lesson.topK.value_or(0));
    m_topP->setValue(chain.lesson.topP.value_or(0.0));
    for (const auto& [name, box] : m_boxes)
        box->setValue((chain.stages.*parameter(name).field).value_or(engine::notSetValue(parameter(name))));
    m_biasSpelling = chain.stages.logitBias;
    m_breakerSpelling = chain.stages.dryBreakers;
    m_customOrder = chain.stages.order;
    m_arithmeticChoice = chain.stages.arithmetic;
    m_arithmetic->setChecked(engine::resolveArithmetic(m_arithmeticChoice, chain.semantics) ==
                             engine::Arithmetic::Library);
    m_contextIds = chain.context;
    m_updating = false;
    showTokenFields();
    updateLabels();
}

void ChainControls::setTokenNames(std::shared_ptr<const std::vector<std::string>> names)
{
    m_names = std::move(names);
    showTokenFields();
    updateLabels();
}

void ChainControls::showTokenFields()
{
    static const std::vector<std::string> none;
    const auto& names = m_names ? *m_names : none;
    m_context->setText(QString::fromStdString(engine::formatTokenReferences(m_contextIds, names)));
    m_logitBias->setText(QString::fromStdString(engine::formatBiasReferences(m_biasSpelling, names)));
    m_dryBreakers->setText(
        QString::fromStdString(engine::formatTokenReferences(engine::idsFromStageList(m_breakerSpelling), names)));
}

void ChainControls::tokenFieldEdited(QLineEdit* edit)
{
    static const std::vector<std::string> none;
    const auto& names = m_names ? *m_names : none;
    const std::string text = edit->text().toStdString();
    std::optional<std::string> problem;
    if (edit == m_logitBias) {
        auto bias = engine::parseBiasReferences(text, names, "logit bias");
        if (bias && *bias == m_biasSpelling)
            return;
        if (bias)
            m_biasSpelling = *bias;
        else
            problem = bias.error();
    } else {
        auto ids = engine::parseTokenReferences(text, names, edit == m_context ? "context" : "DRY breakers");
        if (ids && edit == m_context) {
            if (*ids == m_contextIds)
                return;
            m_contextIds = *ids;
        } else if (ids) {
            if (engine::stageListFromIds(*ids) == m_breakerSpelling)
                return;
            m_breakerSpelling = engine::stageListFromIds(*ids);
        } else {
            problem = ids.error();
        }
    }
    if (problem) {
        // The field keeps the user's text to fix; the chain keeps the last good value.
        showProblem(QString::fromStdString(*problem));
        return;
    }
    showTokenFields();
    userChanged(false);
}

QString ChainControls::chainText() const { return app::explorerChainText(chain()); }

void ChainControls::userChanged(bool temperatureOnly)
{
    updateLabels();
    if (!m_updating)
        emit chainEdited(chain(), temperatureOnly);
}

void ChainControls::showProblem(const QString& message)
{
    m_problem->setText(message);
    m_problem->setVisible(!message.isEmpty());
}

void ChainControls::updateLabels()
{
    if (m_updating)
        return;
    const engine::ExplorerChain c = chain();
    m_greedy->setVisible(m_temperature->value() == 0.0);
    m_arithmetic->setEnabled(c.semantics != engine::Semantics::Lesson);  // the lesson has only its own
    // A stage the preset's library lacks is dimmed (its box stays editable so a value can be cleared).
    for (const auto& [name, label] : m_boxLabels)
        label->setEnabled(engine::presetAccepts(parameter(name), c.semantics));
    // A chain the preset cannot run is said next to the controls; the page keeps the last good one.
    const auto problem = engine::validateExplorerChain(c, m_names ? m_names->size() : 0);
    showProblem(problem ? QString::fromStdString(*problem) : QString());
    // Where the chain reaches llama.cpp behaviour LogitLab does not copy (a bias after a sort),
    // say so under the chain (docs/semantics.md D11); the results follow LogitLab's rules.
    QString orderText = problem ? QString() : chainText();
    if (!problem)
        for (const std::string& warning : engine::explorerChainWarnings(c))
            orderText += QStringLiteral("\n\u26a0 ") + QString::fromStdString(warning);
    m_order->setText(orderText);
    std::vector<std::string> active;
    if (!problem)
        if (auto built = engine::buildChain(engine::toChainSettings(c), c.semantics))
            for (const engine::SamplerStage* stage : built->activeStages())
                active.push_back(engine::presetStageKey(stage->name()));
    m_orderList->setStages(c.stages.order.empty() ? engine::presetOrder(c.semantics) : c.stages.order, active);
    m_presetOrder->setEnabled(!m_customOrder.empty());
}

}  // namespace logitlab::ui
