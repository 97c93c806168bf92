"""The tests ``make test-fast`` leaves out: marked ``slow`` by conftest.py, run by ``make test``.

A test is slow when it takes about a third of a second or more on two cores (a property search over
many examples, a brute force, a DP-SGD calibration, quadrature at fifty digits, a figure drawn and
compared): the fast loop keeps the quick tests of every file below and of every shared module, and
``make test`` runs all of them, with every assertion and every example. ``SLOW_FILES`` are slow
from end to end (figures, the scrubbers, the assignments, symbolic derivations, scans of the whole
repository): a run that deselects ``slow`` does not even import them. Measured with
``pytest --durations=0``; move a test here when it grows past the threshold. Each notebook's own
files (its figures' tests, its run under nbval) come from the registry of the notebooks, with the
seconds its declaration states.
"""

from choosing_epsilon.harness import papers

# each notebook's figures' tests (tests/test_plots_<notebook>.py), slow by nature: every one
# draws figures; with the seconds they take in make test
PAPER_PLOTS = {f"test_plots_{n}.py": papers.paper(n).plots_test_seconds for n in papers.names()}

SLOW_FILES = frozenset(
    {
        "test_assignments.py",
        "test_authors_code.py",
        "test_citation.py",
        "test_forensics_kazan_reiter_derivations.py",
        "test_one_formula.py",
        "test_scrubbers.py",
        *PAPER_PLOTS,
    }
)

# file: the names of its slow test functions (every parametrization of each)
SLOW_TESTS = {
    "test_budget.py": {
        "test_accountant_never_lets_spending_exceed_the_budget",
        "test_releases_within_is_what_the_accountant_allows",
        "test_serve_requests_agrees_with_releases_within",
    },
    "test_calibration.py": {
        "test_a_committed_calibration_found_again_from_scratch",
        "test_a_committed_calibration_recomputed_brackets_its_target",
        "test_a_dpsgd_calibration_spends_its_tolerance_on_the_safe_side",
        "test_at_another_delta_the_attack_aware_noise_of_a_stored_row_is_read_not_searched",
        "test_dpsgd_advantage_calibration_agrees_with_riskcals",
        "test_dpsgd_tpr_calibration_agrees_with_riskcals",
        "test_gaussian_delta_against_dp_accounting_and_the_attacker_scale",
        "test_gaussian_err_rates_calibration_against_riskcal",
        "test_standard_and_aware_row",
        "test_stored_rows_are_reused_and_missing_ones_computed",
        "test_the_committed_grid_holds_every_target_under_todays_key",
        "test_the_grid_in_processes_equals_the_grid_in_one",
        "test_the_ladder_reaches_as_far_as_the_target_asks",
    },
    "test_calibration_routes.py": {
        "test_laplace_advantage_is_the_total_variation_by_integration",
        "test_laplace_curve_against_riskcal_on_dp_accountings_distribution",
        "test_laplace_curve_area_by_integration",
        "test_laplace_curve_lies_below_pure_epsilon_and_touches_it_in_the_tails",
        "test_the_calibrated_noise_by_sampling",
        "test_the_laplace_calibration_read_by_riskcal_on_dp_accounting",
        "test_the_noise_ratio_is_at_least_one_for_any_advantage",
        "test_the_noise_ratio_is_at_least_one_for_any_tpr",
        "test_the_pld_reading_is_printed_plainly_where_it_holds_and_flagged_where_riskcal_misses",
        "test_the_standard_gaussian_noise_is_the_analytic_gaussian_mechanism",
    },
    "test_cases_hsu_poster_synthesis.py": {
        "test_readable_probability_names_an_underflow",
        "test_smallest_true_n_for_huge_studies",
        "test_smallest_true_n_is_a_crossing_of_alpha",
        "test_synthesis_refuses_a_bad_column_before_a_kernel_starts",
        "test_true_failure_probability_scales_to_huge_studies",
    },
    "test_cases_laplace_shoaran.py": {
        "test_diff_worst_case_is_the_enumerated_worst_case",
    },
    "test_compare_and_outputs.py": {
        "test_a_run_that_stops_in_its_notebook_says_where_in_one_line",
    },
    "test_composition.py": {
        "test_a_million_releases_keep_their_digits",
        "test_dp_accounting_brackets_the_exact_composition",
        "test_the_averaging_test_against_its_monte_carlo",
        "test_the_dominating_pair_lies_above_one_release_and_its_distribution_above_it",
        "test_the_f_dp_composition_is_tighter_than_k_rho_where_the_docstring_says",
        "test_the_zcdp_bracket",
    },
    "test_confidence.py": {
        "test_analytic_sigma_meets_the_privacy_profile_exactly",
        "test_classical_sigma_is_conservative_below_one",
        "test_slip_curves_match_the_notebook",
        "test_theorem1_epsilon_reveals_the_query_answer",
        "test_theorem1_value_is_a_lower_bound_that_chebyshev_certifies",
        "test_theorem2_epsilon_rises_with_p",
        "test_theorem2_is_exact_and_agrees_with_opendp",
    },
    "test_dpsgd_singling_out.py": {
        "test_at_another_delta_the_bound_and_attained_noise_of_the_stored_row_are_kept",
    },
    "test_economics.py": {
        "test_feasible_region_grows_with_the_budget",
        "test_payment_rises_with_epsilon",
        "test_worst_case_fraction_at_the_slides_design_is_one_half",
        "test_worst_case_fraction_is_the_maximum_of_a_fine_scan",
        "test_worst_case_table_and_symmetry",
    },
    "test_environment.py": {
        "test_binder_pins_are_closed_under_their_own_requirements",
        "test_make_help_lists_every_target",
    },
    "test_forensics_kazan_reiter_2024.py": {
        "test_durham_switching_probability_is_one_tenth_at_the_most_aggressive_profile",
    },
    "test_forensics_lee_clifton_replication.py": {
        "test_each_defect_only_ever_raises_or_lowers_the_risk_one_way",
        "test_without_the_two_defects_its_risk_is_eq3_over_every_world",
    },
    "test_formulas_once.py": {
        "test_each_pending_repeat_is_still_there",
        "test_no_formula_is_written_out_beside_its_function",
    },
    "test_harness_inputs.py": {
        "test_registry_as_a_folder_or_an_older_csv",
        "test_synthesis_reads_a_csv_column_inside_the_public_range",
        "test_the_committed_inputs_pass",
    },
    "test_interruption.py": {
        "test_a_signal_inside_the_block_takes_effect_when_it_exits",
        "test_later_signals_leave_the_clean_up_alone",
        "test_of_two_signals_inside_the_block_the_first_takes_effect",
    },
    "test_laplace.py": {
        "test_input_perturbation_keeps_the_mean_but_not_the_variance",
        "test_log_density_agrees_with_scipy_where_scipy_is_exact",
        "test_log_survival_agrees_with_scipy_where_scipy_is_finite",
        "test_neighbouring_tail_ratio_is_at_most_e_to_epsilon",
        "test_noise_at_probability_inverts_the_tail",
        "test_tail_is_exponential",
    },
    "test_layers.py": {
        "test_no_module_imports_upward_or_into_another_paper",
    },
    "test_notebook_cells.py": {
        "test_claim_checks_live_in_tagged_cells_of_their_own",
        "test_the_ledger_is_given_values_unrounded",
    },
    "test_notebook_layout.py": {
        "test_machinery_is_folded_in_jupyter",
        "test_markdown_cells_are_short",
        "test_names_say_what_they_hold",
        "test_names_say_what_they_hold_not_where_they_came_from",
        "test_no_guard_in_the_argument",
        "test_no_visible_cell_does_the_bookkeeping",
        "test_package_modules_are_imported_by_their_own_name",
        "test_visible_code_cells_are_short",
    },
    "test_notebooks.py": {
        "test_results_json_matches_brute_force",
        "test_run_all_starts_the_longest_first_and_answers_in_the_order_asked",
    },
    "test_papers.py": {
        "test_no_file_outside_the_registry_lists_the_notebooks",
        "test_nothing_shared_imports_a_papers_module",
    },
    "test_parameters.py": {
        "test_help_from_the_command_line_lists_the_parameters",
        "test_joint_checks_refuse_on_both_paths",
        "test_notebook_declares_exactly_the_spec_with_the_committed_values",
        "test_parameters_cell_is_the_rendered_declaration",
    },
    "test_pld_curve.py": {
        "test_dpsgd_curve_is_dp_accountings_own_delta_turned_into_a_curve",
        "test_one_subsampled_step_reads_as_its_exact_symmetrised_curve",
    },
    "test_plots_figures.py": {
        "test_a_log_axis_within_one_decade_is_labelled_in_plain_numbers",
        "test_kept_titles_give_the_same_files_as_placing_them_in_every_drawing",
        "test_log_axes_get_minor_ticks_at_2_and_5_when_they_span_two_decades",
        "test_png_background_follows_the_savefig_style",
        "test_png_is_the_drawing_cut_to_its_tight_box",
        "test_png_keeps_its_alpha_channel_when_the_figure_is_transparent",
        "test_save_and_show_closes_the_figure_and_shows_the_saved_png",
        "test_save_figure_records_the_caption_beside_the_figure",
        "test_save_figure_writes_deterministic_files_with_plain_log_labels",
    },
    "test_plots_figures_captions.py": {
        "test_a_departure_stops_a_test_run_and_is_recorded_in_a_readers",
    },
    "test_plots_style_reader_rules.py": {
        "test_each_reader_rule_names_the_broken_figure_and_passes_the_honest_one",
    },
    "test_plots_style_texts.py": {
        "test_overlapping_texts_are_refused",
    },
    "test_possible_worlds.py": {
        "test_a_flat_tail_stands_for_its_end",
        "test_exact_matches_brute_force",
        "test_fit_response_recovers_a_known_response",
        "test_fit_response_skips_only_grid_cells_that_cannot_matter",
        "test_fitted_columns_give_the_committed_recovery_and_table_2_checks",
        "test_matching_responses_hold_the_response_and_only_matching_ones",
        "test_posterior_is_a_finite_distribution",
        "test_risk_curves_are_the_committed_figure_2",
        "test_risk_rises_with_epsilon",
        "test_simulated_adversary_and_alumni_are_the_committed_ones",
        "test_table3_column_matches_half_the_responses_and_the_probability_matches_simulation",
        "test_table_3_is_fitted_at_the_flat_tail_of_the_exact_means",
    },
    "test_possible_worlds_counts.py": {
        "test_both_paths_give_the_epsilon_of_exact_arithmetic",
        "test_counted_worlds_are_the_expanded_worlds",
        "test_counts_give_the_expanded_columns_result",
        "test_the_column_that_parted_the_paths_gives_the_exact_epsilon_both_ways",
        "test_the_order_of_the_distinct_values_does_not_matter",
        "test_the_weighted_sum_is_exact",
    },
    "test_privacy_loss.py": {
        "test_delta_at_many_epsilons_is_dp_accountings",
        "test_epsilon_at_a_delta_is_dp_accountings",
        "test_one_step_is_dp_accountings_connect_the_dots_distribution",
        "test_the_composition_is_dp_accountings_self_composition",
        "test_the_curve_is_never_below_one_directions_tests_at_tiny_fprs",
    },
    "test_python_guide.py": {
        "test_every_example_of_the_guide_runs_and_shows_its_output",
    },
    "test_queries.py": {
        "test_counts_give_the_expanded_columns_result_for_every_query",
        "test_every_query_and_k_match_brute_force",
        "test_public_sensitivity_bounds_every_column_and_is_attained",
    },
    "test_registry.py": {
        "test_every_yaml_file_is_a_row_and_the_dropped_rows_are_kept_marked",
        "test_the_registry_states_the_model_and_the_older_file_the_label",
        "test_whole_words_never_cut_a_word",
    },
    "test_relative_error.py": {
        "test_diff_budgets_add_up_to_epsilon",
        "test_noise_conversions_agree_with_opendp",
        "test_one_query_diff_is_equation_6",
    },
    "test_reproduce_safety.py": {
        "test_no_run_writes_into_a_folder_the_repository_tracks",
    },
    "test_risk.py": {
        "test_gdp_tpr_is_the_shifted_normal",
        "test_tradeoff_is_one_minus_tpr_and_decreasing",
        "test_zcdp_never_promises_more_than_the_gaussian_with_its_rho",
    },
    "test_risk_arrays.py": {
        "test_the_closed_forms_read_at_once_are_the_single_readings_bit_for_bit",
        "test_the_conversions_take_arrays",
        "test_tpr_bound_reads_an_array_of_rates_element_by_element",
    },
    "test_risk_exact.py": {
        "test_approximate_curve_is_attained_by_the_four_outcome_mechanism",
        "test_bernoulli_zcdp_rho_against_forty_digits",
        "test_gdp_curve_is_the_gaussian_mechanisms_most_powerful_test",
        "test_no_pure_epsilon_mechanism_beats_the_curve",
        "test_pure_curve_is_attained_by_randomized_response",
        "test_riskcal_agrees_where_it_is_right",
        "test_riskcal_returns_the_trivial_curve_at_small_rho",
        "test_zcdp_advantage_is_randomized_response_at_its_kl",
        "test_zcdp_curve_bounds_the_laplace_mechanism",
        "test_zcdp_curve_is_attained_by_a_two_outcome_mechanism_and_nothing_1e6_above",
        "test_zcdp_curve_lies_between_the_gaussian_and_the_approximate_family",
        "test_zcdp_epsilon_is_dp_accountings_conversion",
        "test_zcdp_tpr_rising_is_the_curve_and_refuses_what_it_cannot_bracket",
    },
    "test_risk_profiles.py": {
        "test_a_plain_python_profile_works_in_both_solvers",
        "test_box_closed_form_equals_solver",
        "test_constant_profile_theorem3",
        "test_difference_profile_eq29",
        "test_fixed_p_closed_form_equals_solver",
        "test_fixed_q_closed_form_equals_solver",
        "test_geometric_noise_moments",
        "test_grid_is_above_the_exact_answer_by_less_than_a_step",
        "test_multiplied_out_form_equals_printed_eq12",
        "test_signed_count_reaches_the_theorem1_bound",
        "test_theorem1_bound_rises_with_epsilon_and_stays_below_e_2eps",
        "test_theorem2_epsilon_makes_theorem1_bound_equal_r_star",
        "test_two_dimensional_profile_of_figure5",
    },
    "test_safe_side.py": {
        "test_gaussian_noise_for_a_tpr_never_allows_more",
        "test_gaussian_noise_for_an_advantage_never_allows_more",
        "test_gaussian_noise_for_an_epsilon_delta_never_allows_more",
        "test_laplace_noise_for_a_tpr_never_allows_more",
        "test_laplace_noise_for_an_advantage_never_allows_more",
        "test_the_epsilon_for_a_tpr_never_allows_more",
        "test_the_epsilon_for_an_advantage_never_allows_more",
        "test_the_standard_gaussian_noise_never_allows_more_than_its_epsilon_delta",
    },
    "test_sensitivity.py": {
        "test_bounded_mean_sensitivity_matches_enumeration",
        "test_bounded_median_sensitivity_matches_enumeration",
        "test_world_answers_and_sensitivity_match_enumeration",
    },
    "test_singling_out.py": {
        "test_no_mechanism_beats_the_exact_worst_case_at_its_own_epsilon_and_delta",
        "test_randomized_response_attains_the_exact_worst_case",
        "test_the_laplace_simplex_keeps_the_laplace_guarantee",
        "test_the_laplace_simplex_lies_between_chance_and_the_bound",
        "test_the_noise_for_a_stated_chance_from_both_sides",
        "test_the_simplex_gaussian_by_quadrature_at_fifty_digits",
        "test_the_simplex_gaussian_lies_between_chance_and_the_bound",
        "test_the_simplex_mechanisms_by_seeded_sampling",
        "test_the_worst_case_lies_below_the_curve_s_bound_and_balle_s",
        "test_two_gaussian_candidates_are_the_membership_test",
        "test_zcdp_reads_through_the_gaussian_it_contains",
    },
    "test_site_build.py": {
        "test_the_marked_section_is_folded_in_the_document_tree",
    },
    "test_synthesis.py": {
        "test_a_bad_column_is_refused_in_one_line",
        "test_a_long_name_is_shortened_in_whole_words_in_the_prose_and_whole_in_the_table",
        "test_a_method_that_applies_keeps_the_defaults_words",
        "test_a_tpr_at_most_its_fpr_is_a_risk_no_calibration_applies_to",
        "test_an_unmet_requirement_is_not_a_method_that_does_not_apply",
        "test_kazan_reiter_at_a_ratio_of_at_most_one_does_not_apply",
        "test_lee_clifton_for_any_statistic_keeps_the_worst_posterior_at_rho",
        "test_lee_clifton_from_counts_equals_the_worlds_of_the_expanded_column",
        "test_shoaran_without_a_positive_bound_in_the_range_does_not_apply",
        "test_the_answer_and_the_lines_say_both_routes",
        "test_the_committed_epsilons_are_the_package_functions",
    },
    "test_synthesis_release.py": {
        "test_adversary_knows_data_both_ways",
        "test_on_a_file_a_value_given_in_the_columns_unit_is_used",
        "test_on_a_file_paying_participants_needs_the_error_in_the_columns_unit",
        "test_on_a_file_the_demos_accuracy_noise_bound_and_lower_bound_are_not_read",
        "test_on_a_file_the_demos_lower_bound_is_not_read",
        "test_on_a_file_the_demos_survey_is_not_read",
        "test_one_release_is_the_committed_answer_and_many_are_read_composed",
        "test_pays_participants_both_ways",
        "test_the_answers_sentences_are_true",
        "test_the_noise_per_release_keeps_all_releases_to_the_stated_risk",
        "test_the_parameter_sets_cover_each_shape_of_the_answer",
        "test_the_table_iterates_one_list_of_methods_each_with_its_premise",
    },
    "test_tables.py": {
        "test_a_duckdb_table_is_read_without_a_trace",
        "test_a_file_gives_numpys_unique",
        "test_a_glob_of_parquet_files_is_one_table",
        "test_bad_columns_are_refused",
        "test_counts_give_the_same_epsilon_as_the_column",
        "test_empty_and_valueless_columns_are_refused",
        "test_missing_sources_are_refused",
        "test_nulls_are_refused_unless_dropped",
        "test_too_many_distinct_values_are_refused",
        "test_values_float64_cannot_hold_are_refused",
    },
    "test_test_files.py": {
        "test_every_module_of_the_package_is_imported_by_a_test",
        "test_the_slow_lists_name_files_and_tests_that_exist",
    },
}

# The seconds the longest files of make test take, measured on two cores (``pytest
# --durations=0`` summed by file, on a machine shared with other work: a ranking, not a budget).
SECONDS = {
    "test_scrubbers.py": 79,
    "test_contributing.py": 55,
    "test_calibration.py": 48,
    "test_synthesis_release.py": 43,
    "test_risk_exact.py": 37,
    "test_synthesis.py": 32,
    "test_composition.py": 29,
    "test_parameters.py": 28,
    "test_pld_curve.py": 27,
    "test_risk_profiles.py": 21,
    "test_one_formula.py": 20,
    "test_queries.py": 19,
    "test_authors_code.py": 18,
    "test_calibration_routes.py": 17,
    "test_economics.py": 15,
    "test_assignments.py": 15,
    "test_forensics_kazan_reiter_derivations.py": 14,
    "test_possible_worlds.py": 14,
    "test_plots_figures.py": 12,
    "test_citation.py": 12,
    "test_possible_worlds_counts.py": 12,
    "test_singling_out.py": 11,
    "test_risk.py": 9,
    **PAPER_PLOTS,
    **{f"{n}.ipynb": papers.paper(n).nbval_seconds for n in papers.names()},
}

# The longest files, longest first: conftest.py hands them out first (make test runs with
# --no-loadscope-reorder, which keeps this order), so that the workers finish together: make test
# hands out whole files, and a long one handed out last leaves the other worker idle; the other
# files follow in their own order.
LONGEST = tuple(sorted(SECONDS, key=lambda name: (-SECONDS[name], name)))
