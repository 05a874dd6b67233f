# run_generate(OUT_VAR ARGS...): the greedy text of `infergate generate ARGS` with an empty prompt
# (BOS alone: the presets' tokenizer is bytes, a GGUF's SentencePiece, so any text would become
# different ids), the report after it cut off. Needs INFERGATE set.
function(run_generate out_var)
  execute_process(COMMAND ${INFERGATE} generate ${ARGN} --max-tokens 12 --threads 2 --prompt ""
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "infergate generate ${ARGN} failed (${rc}): ${err}")
  endif()
  string(REGEX REPLACE "\n---.*" "" text "${out}")  # the text before the report
  set(${out_var} "${text}" PARENT_SCOPE)
endfunction()
