// A lower layer that reaches up: core_layers_self_test expects check_layers.cmake to name this line.
#pragma once
#include "core/support/status.hpp"
#include "core/execution/plan_runner.hpp"
