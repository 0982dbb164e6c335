#pragma once
// Temporary: PhysicsSettings moved to solver/ (the solver reads it and may not include world/).
#include "atoll/solver/PhysicsSettings.h"
