# Warnings are errors on every compiler we support (g++ 12, clang 14).
add_library(atoll_warnings INTERFACE)
target_compile_options(atoll_warnings INTERFACE -Wall -Wextra -Wpedantic -Werror -Wno-missing-field-initializers)
if(ATOLL_SANITIZE)
  add_compile_options(-fsanitize=${ATOLL_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${ATOLL_SANITIZE})
endif()
