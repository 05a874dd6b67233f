# Exports the tiny preset to GGUF and safetensors, generates from each, and requires the very
# same greedy text as the preset itself: the formats carry the model exactly.
# The prompt is empty (BOS alone): every command tokenizes with the model's own tokenizer, and
# the GGUF's is SentencePiece (as llama.cpp reads it) where the preset's is bytes, so any text
# would become different ids.
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

include(${CMAKE_CURRENT_LIST_DIR}/generate_text.cmake)

execute_process(COMMAND ${INFERGATE} export --model tiny --format gguf --out ${WORK_DIR}/tiny.gguf
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "export to GGUF failed")
endif()
execute_process(COMMAND ${INFERGATE} export --model tiny --format safetensors
                        --out ${WORK_DIR}/tiny-hf RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "export to safetensors failed")
endif()

run_generate(preset --model tiny)
run_generate(gguf --model ${WORK_DIR}/tiny.gguf)
run_generate(safetensors --model ${WORK_DIR}/tiny-hf)
if(NOT preset STREQUAL gguf OR NOT preset STREQUAL safetensors)
  message(FATAL_ERROR "texts differ:\npreset: ${preset}\ngguf: ${gguf}\nsafetensors: ${safetensors}")
endif()
message(STATUS "all three formats generated: ${preset}")
file(REMOVE_RECURSE ${WORK_DIR})
