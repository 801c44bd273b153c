/** Custom resources: the kinds CustomResourceDefinitions define, built at run time. */
export { customResourceKinds, type CustomResourceOptions } from './custom-resource.definition';
