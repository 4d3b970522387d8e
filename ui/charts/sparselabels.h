// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <QString>
#include <QStringList>

#include <vector>

namespace stepscope::ui {

/// One label of a crowded category axis: the category's text, under the category's bar, over
/// the axis interval [start, end] centred on it (the bars are at 0, 1, ... n-1).
struct SparseLabel
{
    int category = 0;
    QString text;
    double start = 0;
    double end = 0;
};

/// Labels for a category axis whose labels do not all fit: every `every`-th category, with
/// `every` the first of 1, 2, 5, 10, 20, 50, ... that gives a label `labelPx` pixels when each
/// category has `slotPx`. Integer categories (step numbers) are labelled where the number is a
/// multiple of `every` ("10, 20, 30" rather than "3, 13, 23") as far as their order allows.
/// Each label's interval lies inside [-0.5, n - 0.5], so none is cut at an end. Pure.
struct SparseLabels
{
    int every = 1;
    std::vector<SparseLabel> labels;
};
SparseLabels sparseCategoryLabels(const QStringList &categories, double slotPx, double labelPx);

} // namespace stepscope::ui
