// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "model/stringtable.h"

#include <gtest/gtest.h>

using namespace stepscope::model;

TEST(StringTable, InternsEachStringOnce)
{
    StringTable t;
    EXPECT_EQ(t.size(), 1u); // the empty string
    const StringId a = t.intern("aten::conv2d");
    const StringId b = t.intern("aten::relu");
    EXPECT_NE(a, b);
    EXPECT_EQ(t.intern(std::string("aten::conv2d")), a);
    EXPECT_EQ(t.size(), 3u);
    EXPECT_EQ(t.view(a), "aten::conv2d");
    EXPECT_EQ(t.intern(""), StringTable::Empty);
    EXPECT_EQ(t.find("aten::relu"), b);
    EXPECT_FALSE(t.find("missing").isValid());
}

TEST(StringTable, ViewsStayValidAsTheTableGrows)
{
    StringTable t;
    const StringId first = t.intern("first");
    const std::string_view v = t.view(first);
    for (int i = 0; i < 100000; ++i)
        t.intern("name" + std::to_string(i));
    EXPECT_EQ(v, "first");
    EXPECT_EQ(t.view(first).data(), v.data());
}

TEST(StringTable, MergeRemapsIds)
{
    StringTable a;
    a.intern("x");
    StringTable b;
    const StringId y = b.intern("y");
    const StringId x = b.intern("x");
    const std::vector<StringId> map = a.merge(b);
    ASSERT_EQ(map.size(), b.size());
    EXPECT_EQ(a.view(map[y.value()]), "y");
    EXPECT_EQ(map[x.value()], a.find("x"));
    EXPECT_EQ(a.size(), 3u);
}
