/** PodCertificateRequest conditions are plain metav1.Conditions. */
export { validateCondition, validateConditions, type MetaCondition } from '../../machinery/validation/conditions';
