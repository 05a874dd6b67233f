# The trained target loads through both paths a downloaded model takes and answers alike: its
# safetensors directory (config.json, tokenizer.json, the template) and the GGUF that
# `infergate export` writes of it (the tokenizer as GGUF's own tables). Same prompt ids, same
# greedy text, readable (not token soup: it is a trained model). Needs INFERGATE, TRAINED, WORK_DIR.
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
execute_process(COMMAND ${INFERGATE} export --model ${TRAINED}/target --format gguf
                        --out ${WORK_DIR}/trained.gguf RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "export of the trained model failed (${rc}): ${err}")
endif()

set(prompt "def read_config(path):\n    \"\"\"Return the")
function(answer out_var model)
  execute_process(COMMAND ${INFERGATE} generate --model ${model} --prompt ${prompt} --max-tokens 40
                          --threads 2 OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "generate --model ${model} failed (${rc}): ${err}")
  endif()
  string(REGEX REPLACE "\n---.*" "" text "${out}")  # the text before the report
  execute_process(COMMAND ${INFERGATE} logits --model ${model} --prompt ${prompt} --top 1
                          --threads 2 OUTPUT_VARIABLE top ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "logits --model ${model} failed (${rc}): ${err}")
  endif()
  string(JSON ids GET "${top}" tokens)
  set(${out_var} "${text}" PARENT_SCOPE)
  set(${out_var}_ids "${ids}" PARENT_SCOPE)
endfunction()

answer(safetensors ${TRAINED}/target)
answer(gguf ${WORK_DIR}/trained.gguf)
if(NOT safetensors_ids STREQUAL gguf_ids)
  message(FATAL_ERROR "the prompt's ids differ:\n safetensors ${safetensors_ids}\n gguf ${gguf_ids}")
endif()
if(NOT safetensors STREQUAL gguf)
  message(FATAL_ERROR "greedy text differs:\n--- safetensors\n${safetensors}\n--- gguf\n${gguf}")
endif()
# Readable: mostly letters and spaces, and words the corpus has (a random model's ids decode to
# fragments of 4,096 byte-pair pieces in no order).
string(REGEX MATCHALL "[A-Za-z]+" words "${safetensors}")
list(LENGTH words word_count)
if(word_count LESS 8)
  message(FATAL_ERROR "the trained model's text has ${word_count} words: ${safetensors}")
endif()
message(STATUS "same prompt ids ${safetensors_ids} and greedy text on both paths:\n${safetensors}")
