// A folder that is not a layer.
#pragma once
